import Foundation

/// The memory this process lets its segment encoders use at once, shared by every job it runs.
///
/// A segment chunk reserves its ``EncoderFootprint`` before it opens its decoder and encoder and
/// gives it back when done; a chunk whose footprint does not fit beside those running waits. So
/// the encoders running at once stay within the budget however many chunks the scheduler starts
/// (one per CPU), and one encoder larger than the whole budget still runs, alone.
public final class EncoderBudget: @unchecked Sendable {
    /// The budget, in bytes.
    public let bytes: UInt64

    private let condition = NSCondition()
    private var reserved: UInt64 = 0
    private var running = 0
    private var mostRunning = 0

    /// A budget of `bytes`.
    public init(bytes: UInt64) {
        self.bytes = bytes
    }

    /// A budget that never makes an encoder wait: for embedders that bound chunks themselves.
    public static func unlimited() -> EncoderBudget { EncoderBudget(bytes: .max) }

    /// Half of `usableBytes` (the host probe's usable memory): the rest stays for photo chunks,
    /// the page cache and the machine's other programs.
    public static func half(of usableBytes: UInt64) -> EncoderBudget { EncoderBudget(bytes: usableBytes / 2) }

    /// How many encoders of `footprint` bytes run at once within the budget: at least one.
    public func encodersAtOnce(footprint: UInt64) -> Int {
        footprint == 0 ? Int.max : max(1, Int(min(bytes / footprint, UInt64(Int.max))))
    }

    /// The most encoders that have run at once in this budget so far.
    public var mostAtOnce: Int {
        condition.lock()
        defer { condition.unlock() }
        return mostRunning
    }

    /// Runs `body` once `footprint` more bytes fit in the budget (at once when nothing else
    /// runs), holding them until it returns. Waiting blocks the calling thread, as encoding does;
    /// `shouldStop` is asked every 0.1 s while waiting.
    /// - Parameter waits: called once, before waiting, with how many encoders hold the budget.
    /// - Returns: what `body` returns, or `nil` when `shouldStop` said stop before the bytes fit
    ///   (`body` did not run).
    package func whenAvailable<Result>(_ footprint: UInt64, shouldStop: () -> Bool, waits: (_ running: Int) -> Void = { _ in },
                               _ body: () throws -> Result) rethrows -> Result? {
        condition.lock()
        if running > 0, footprint > bytes - min(bytes, reserved) {
            let holding = running
            condition.unlock()
            waits(holding)
            condition.lock()
        }
        while running > 0, footprint > bytes - min(bytes, reserved) {
            if shouldStop() {
                condition.unlock()
                return nil
            }
            condition.wait(until: Date(timeIntervalSinceNow: 0.1))
        }
        reserved += footprint
        running += 1
        mostRunning = max(mostRunning, running)
        condition.unlock()
        defer {
            condition.lock()
            reserved -= footprint
            running -= 1
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }
}
