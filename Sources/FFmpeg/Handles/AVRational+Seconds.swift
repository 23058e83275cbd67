import CFFmpegShim

extension AVRational {
    /// `timestamp` in this time base, in seconds.
    func seconds(_ timestamp: Int64) -> Double {
        Double(timestamp) * Double(num) / Double(den)
    }

    /// The timestamp in this time base nearest to `seconds`, so that times computed by
    /// ``seconds(_:)`` come back exactly.
    func timestamp(_ seconds: Double) -> Int64 {
        Int64((seconds * Double(den) / Double(num)).rounded())
    }

    /// Whether this is a usable time base or rate (both terms positive).
    var isValid: Bool { num > 0 && den > 0 }
}
