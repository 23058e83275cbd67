import Foundation

/// Holds work while the machine is critically hot: a ``HostCondition`` that reads the thermal
/// zones through a ``HostProbe`` (so tests can point it at a fake `/sys`).
public struct ThermalGuard: HostCondition {
    /// Where the thermal zones are read.
    public let probe: HostProbe

    /// Creates a guard reading the thermal zones through `probe` (the real `/sys` by default).
    public init(probe: HostProbe = HostProbe()) {
        self.probe = probe
    }

    /// Names the hottest zone when the thermal state is critical; `nil` otherwise.
    public func reasonToWait() -> String? {
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
