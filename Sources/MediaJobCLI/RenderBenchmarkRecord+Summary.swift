import Foundation
import GPURender

extension RenderBenchmarkRecord {
    /// Where `--gpu auto` renders each operation by this record, and why, with the figures (as
    /// `status` and `probe` show it).
    package var summary: (text: String, json: [String: Any]) {
        let time = ISO8601DateFormatter().string(from: measuredAt)
        var json: [String: Any] = ["measured": true, "measured_at": time, "device": device,
                                   "driver_version": driverVersion]
        for operation in RenderOperation.allCases {
            json[operation.rawValue] = gpuIsFaster(for: operation) ? "gpu" : "cpu"
            json["\(operation.rawValue)_reason"] = explanation(for: operation)
        }
        let text = RenderOperation.allCases.map(explanation).joined(separator: "; ")
            + " (measured \(time), driver \(driverVersion))"
        return (text, json)
    }
}
