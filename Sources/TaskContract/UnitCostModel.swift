/// What one unit of each stage is expected to cost, learned from what units really took.
///
/// Each stage's estimate is an exponential moving average of measured costs, seeded from stored
/// history for the job kind on this machine or from a default.
public struct UnitCostModel: Sendable, Codable, Equatable {
    /// Weight of the newest measurement in the moving average.
    public static let smoothing = 0.3

    /// Estimated cost per unit, by stage, in seconds.
    public private(set) var estimates: [Stage: Double]
    /// Estimate for stages without one.
    public var fallback: Double

    /// A model seeded with `seeds` (seconds per unit, by stage).
    public init(seeds: [Stage: Double] = [:], fallback: Double = 1) {
        self.estimates = seeds.filter { $0.value.isFinite && $0.value >= 0 }
        self.fallback = fallback
    }

    /// The expected cost of one unit of `stage`, in seconds.
    public func estimate(for stage: Stage) -> Double {
        estimates[stage] ?? fallback
    }

    /// Folds a measured cost into `stage`'s estimate.
    public mutating func observe(_ seconds: Double, for stage: Stage) {
        guard seconds.isFinite, seconds >= 0 else { return }
        if let old = estimates[stage] {
            estimates[stage] = old + Self.smoothing * (seconds - old)
        } else {
            estimates[stage] = seconds
        }
    }
}
