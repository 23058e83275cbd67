/// Checks `condition` every 10 ms until it holds, for at most `limit`.
///
/// For states another session reaches that nothing announces (a session waiting on a lock). It
/// sleeps with `Task.sleep`, never blocking a thread, so tasks the test started meanwhile (which
/// may be what it waits for) can run even when Swift concurrency has only one or two threads.
/// - Parameters:
///   - what: what is waited for, for the error.
///   - limit: how long to wait at most.
///   - condition: the check.
/// - Throws: ``WaitTimedOut`` naming `what` when the deadline passes; what `condition` throws.
public func waitUntil(_ what: String, limit: Duration = .seconds(30), _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + limit
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw WaitTimedOut(what: what, limit: limit) }
        try await Task.sleep(for: .milliseconds(10))
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
