import Foundation
import Synchronization

/// Holds work while the machine is critically hot: a ``HostCondition`` that reads the thermal
/// zones through a ``HostProbe`` (so tests can point it at a fake `/sys`).
///
/// The runner asks at every chunk boundary, which in a job of many small chunks is a thousand
/// times a second, and a reading is several files per zone; the zones are read at most once per
/// ``interval`` (a tenth of a second by default) and the last answer is given in between.
public final class ThermalGuard: HostCondition {
    /// Where the thermal zones are read.
    public let probe: HostProbe
    /// How long an answer stands before the zones are read again.
    public let interval: Duration
    private let clock = ContinuousClock()
    private let last = Mutex<(at: ContinuousClock.Instant, reason: String?)?>(nil)

    /// Creates a guard reading the thermal zones through `probe` (the real `/sys` by default) at
    /// most once per `interval`.
    public init(probe: HostProbe = HostProbe(), interval: Duration = .milliseconds(100)) {
        self.probe = probe
        self.interval = interval
    }

    /// Names the hottest zone when the thermal state is critical; `nil` otherwise.
    public func reasonToWait() -> String? {
        let now = clock.now
        if let last = last.withLock({ $0 }), now - last.at < interval { return last.reason }
        let reason = readReason()
        last.withLock { $0 = (now, reason) }
        return reason
    }

    private func readReason() -> String? {
        let thermal = probe.thermal()
        guard thermal.state == .critical, let zone = thermal.worstZone else { return nil }
        let trip = (zone.trips["critical"] ?? zone.trips["hot"]).map { ", trip point \(Self.degrees($0))" } ?? ""
        return "the machine is too hot (thermal state critical: \(zone.name) at \(Self.degrees(zone.celsius))\(trip)); "
            + "let it cool down, then resume"
    }

    private static func degrees(_ celsius: Double) -> String {
        String(format: "%.0f °C", celsius)
    }
}
