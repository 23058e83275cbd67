/// What a unit of work costs in each stage, learned from what chunks really took.
///
/// Chunks state how much work they are (in a unit their kind chooses for each stage, such as
/// pixel-frames, megapixels or bytes), so a chunk twice the work is expected to take twice as
/// long. Each stage's estimate, in seconds per unit of work, is a moving average weighted by
/// work: a chunk of the usual size moves it by ``smoothing`` of the way to what it measured, a
/// smaller chunk by less, a larger one by more. Estimates are seeded from stored history for the
/// job kind on this machine or from the kind's defaults.
public struct UnitCostModel: Sendable, Codable, Equatable {
    /// Weight of the newest measurement in the moving average, for a chunk as large as the work
    /// the estimate stands for.
    public static let smoothing = 0.3

    /// Estimated seconds per unit of work, by stage.
    public private(set) var estimates: [Stage: Double]
    /// How much work each learned estimate stands for (older measurements fade), by stage. A
    /// seeded estimate has none: it stands for as much work as the first chunk measured.
    public private(set) var weights: [Stage: Double]
    /// Estimate for stages without one.
    public var fallback: Double

    /// A model seeded with `seeds` (seconds per unit of work, by stage).
    public init(seeds: [Stage: Double] = [:], fallback: Double = 1) {
        self.estimates = seeds.filter { $0.value.isFinite && $0.value >= 0 }
        self.weights = [:]
        self.fallback = fallback
    }

    /// The expected seconds one unit of work of `stage` takes.
    public func estimate(for stage: Stage) -> Double {
        estimates[stage] ?? fallback
    }

    /// The expected seconds `work` units of `stage` take.
    public func cost(of work: Double, in stage: Stage) -> Double {
        estimate(for: stage) * work
    }

    /// Folds a chunk of `stage` that did `work` units in `seconds` into the stage's estimate.
    ///
    /// With `w` the work behind the estimate `e`, the new estimate is
    /// `((1 − s) · w · e + s · seconds) / ((1 − s) · w + s · work)` with `s` = ``smoothing``, and
    /// `(1 − s) · w + s · work` the work behind it; the first measurement of a stage without an
    /// estimate becomes its estimate. Chunks of equal work give the plain moving average
    /// `e + s · (seconds / work − e)`.
    public mutating func observe(_ seconds: Double, work: Double = 1, for stage: Stage) {
        guard seconds.isFinite, seconds >= 0, work.isFinite, work > 0 else { return }
        guard let old = estimates[stage] else {
            estimates[stage] = seconds / work
            weights[stage] = work
            return
        }
        let kept = (1 - Self.smoothing) * (weights[stage] ?? work)
        let weight = kept + Self.smoothing * work
        estimates[stage] = (kept * old + Self.smoothing * seconds) / weight
        weights[stage] = weight
    }

    private enum CodingKeys: String, CodingKey { case estimates, weights, fallback }

    /// Decodes a model; one stored before weights existed has none (every estimate as if seeded).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        estimates = try container.decode([Stage: Double].self, forKey: .estimates)
        weights = try container.decodeIfPresent([Stage: Double].self, forKey: .weights) ?? [:]
        fallback = try container.decode(Double.self, forKey: .fallback)
    }
}
