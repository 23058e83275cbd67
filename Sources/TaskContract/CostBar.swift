/// The cost-weighted progress fraction.
///
/// Each report of finished work moves the bar by that work's share of what is left:
/// `f ← f + (cap − f) · done / (done + remaining)`, where `done` is the cost of the work just
/// finished and `remaining` the estimated cost of everything still owed. The bar never goes
/// backwards, moves whenever work lands, rescales itself when a total is learned late, stays at or
/// below ``cap`` while anything is owed, and reaches 1 only through ``complete()``.
public struct CostBar: Sendable, Codable, Equatable {
    /// The highest fraction shown while any work is owed.
    public static let cap = 0.97

    /// The fraction shown, from 0 to 1.
    public private(set) var fraction: Double

    /// A bar at `fraction` (0 for a new job; a resumed job passes its stored fraction).
    public init(fraction: Double = 0) {
        self.fraction = fraction.isFinite ? min(max(fraction, 0), 1) : 0
    }

    /// Moves the bar for finished work.
    /// - Parameters:
    ///   - done: the cost of the work that just finished (any unit, ≥ 0).
    ///   - remaining: the estimated cost, in the same unit, of all work still owed (≥ 0).
    ///   Non-finite costs move nothing.
    public mutating func advance(done: Double, remaining: Double) {
        guard fraction < Self.cap, done.isFinite, remaining.isFinite else { return }
        let done = max(done, 0), remaining = max(remaining, 0)
        let share = done + remaining > 0 ? done / (done + remaining) : 1
        fraction = min(Self.cap, fraction + (Self.cap - fraction) * share)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(fraction: try container.decode(Double.self, forKey: .fraction))
    }

    private enum CodingKeys: String, CodingKey { case fraction }

    /// Fills the bar: only when nothing is owed any more.
    public mutating func complete() {
        fraction = 1
    }
}
