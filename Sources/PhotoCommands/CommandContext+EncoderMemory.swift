import Foundation
import MediaJobCLI
import PhotoJobs

extension CommandContext {
    /// The memory this process's video segment encoders share: `MEDIAJOB_ENCODER_MEMORY` when set
    /// (bytes, or with a binary suffix: `600M`, `1.5G`), else half of the usable memory the host
    /// probe reports.
    /// - Throws: ``UsageError`` naming the variable when its value is not a size.
    package func encoderBudget() throws -> EncoderBudget {
        guard let text = environment["MEDIAJOB_ENCODER_MEMORY"], !text.isEmpty else {
            return .half(of: hostProbe.memory().usableBytes)
        }
        guard let bytes = Self.byteCount(text) else {
            throw UsageError("MEDIAJOB_ENCODER_MEMORY must be a size in bytes, or with K, M, G or T (powers of 1024) "
                             + "such as 600M or 1.5G, got '\(text)'; set it so or unset it", command: arguments.command)
        }
        return EncoderBudget(bytes: bytes)
    }

    /// `text` as a count of bytes: a positive number with an optional K, M, G or T (KiB … TiB).
    package static func byteCount(_ text: String) -> UInt64? {
        let units: [Character: Double] = ["K": 0x1p10, "M": 0x1p20, "G": 0x1p30, "T": 0x1p40]
        var number = Substring(text.trimmingCharacters(in: .whitespaces))
        var scale = 1.0
        if let last = number.last?.uppercased().first, let unit = units[last] {
            scale = unit
            number = number.dropLast()
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale < 0x1p63 else { return nil }
        return UInt64((value * scale).rounded())
    }
}
