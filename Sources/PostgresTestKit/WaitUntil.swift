import Foundation

/// Checks `condition` every 10 ms until it holds, for at most `limit`.
///
/// For states another session reaches that nothing announces (a session waiting on a lock).
/// - Parameters:
///   - what: what is waited for, for the error.
///   - limit: how long to wait at most.
///   - condition: the check.
/// - Throws: ``WaitTimedOut`` naming `what` when the deadline passes; what `condition` throws.
public func waitUntil(_ what: String, limit: Duration = .seconds(30), _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + limit
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what, limit: limit) }
        Thread.sleep(forTimeInterval: 0.01)
    }
}

/// A wait passed its deadline.
public struct WaitTimedOut: Error, CustomStringConvertible {
    /// What was waited for.
    public let what: String
    /// How long it was waited for.
    public let limit: Duration

    public var description: String { "gave up after \(limit) waiting until \(what)" }
}
