import Foundation
import JobEngine

/// Reads a job's journal after a test of leased chunks (faults included) and lists every way it
/// breaks the lease protocol's promises (DESIGN.md §10):
///
/// - every chunk claimed was committed exactly once (one `checkpoint`, or one `ended` for the
///   package stage, with its epoch and output);
/// - no commit came from an epoch that had lost its lease: a commit's epoch is the chunk's latest
///   claim before it;
/// - every output committed is `<key>.<epoch>` of that commit's own epoch (`<key>.<epoch>-<token>`
///   where its claim journalled a token), so no two commits share one;
/// - nothing ran past its lease plus the rescue interval (``overruns``, judged on the store's clock).
///
/// The journal is the only witness: the check knows nothing of how the test ran.
public struct LeaseJournalCheck: Sendable {
    /// What the journal shows that breaks a promise, one sentence each; empty when it keeps them all.
    public let violations: [String]
    /// The epochs whose worker was still running the chunk more than the rescue interval after
    /// another claim had rescued it (that claim came only once the epoch's lease had run out), by
    /// the store's clock (``JournalEntry/storedAt``; each entry's ``JournalEntry/at`` is its
    /// writer's own clock). The worker's stop is its `fenced` entry's: its claim's stored time plus
    /// the `after_claim` it reports (no later than the real stop, as the claim's answer came after
    /// the store recorded it); a refused commit shows it running at that commit's stored time.
    /// Kept apart from ``violations``: a worker that self-fencing cannot stop (SIGSTOP) overruns,
    /// and a test that stops one expects it here.
    public let overruns: [Overrun]
    /// How many commits were refused (the stale writers the test made).
    public let refusedCommits: Int
    /// How many claims were rescues of an expired lease.
    public let rescues: Int

    /// An epoch that ran on past its lease plus the rescue interval.
    public struct Overrun: Sendable, Equatable, CustomStringConvertible {
        /// The chunk's index.
        public let chunk: Int
        /// The epoch that ran on.
        public let epoch: String
        /// The worker that held it, as the journal names it.
        public let worker: String?
        /// How long after the chunk's rescue the epoch was still running, in seconds by the store's clock.
        public let secondsPastRescue: Double

        /// The memberwise overrun, as the check finds it.
        public init(chunk: Int, epoch: String, worker: String?, secondsPastRescue: Double) {
            self.chunk = chunk
            self.epoch = epoch
            self.worker = worker
            self.secondsPastRescue = secondsPastRescue
        }

        public var description: String {
            "chunk \(chunk)'s epoch \(epoch) (worker \(worker ?? "?")) was still running "
                + String(format: "%.2f", secondsPastRescue) + " s after another claim rescued the chunk"
        }
    }

    /// The default allowance between a rescue and the stale worker's stop: a worker that could not
    /// renew stops the chunk a tenth of its lease before the lease's end, when the chunk reaches its
    /// next stop check; the allowance covers that check on a loaded machine, and the 0.2 s an idle
    /// worker waits between looks for work.
    public static let defaultRescueInterval = Duration.seconds(1)

    /// Checks `journal`, the whole journal of one job, oldest first.
    /// - Parameters:
    ///   - chunkKeys: each chunk index's key (the package stage's included, if it was leased).
    ///   - rescueInterval: how long after a rescue the stale worker may still be running the chunk.
    public init(_ journal: [JournalEntry], chunkKeys: [Int: String], rescueInterval: Duration = defaultRescueInterval) {
        var latestClaim: [Int: String] = [:]
        var committed: [Int: [String]] = [:]
        var violations: [String] = []
        var refused = 0
        var rescues = 0
        var claimedAt: [Lease: Date] = [:]
        var latestToken: [Int: String] = [:]
        var rescuedAt: [Lease: Date] = [:]
        var running: [(lease: Lease, at: Date, worker: String?)] = []
        var fences: [(lease: Lease, afterClaim: Double, worker: String?)] = []
        for entry in journal {
            let detail = entry.detail
            guard let chunk = detail["chunk"].flatMap(Int.init) ?? (entry.event == .ended ? Self.package(in: chunkKeys) : nil),
                  let epoch = detail["epoch"] else { continue }
            let lease = Lease(chunk: chunk, epoch: epoch)
            switch entry.event {
            case .claimed:
                if detail["rescued_from"] != nil {
                    rescues += 1
                    if let previous = latestClaim[chunk] { rescuedAt[Lease(chunk: chunk, epoch: previous)] = entry.storedAt }
                }
                latestClaim[chunk] = epoch
                latestToken[chunk] = detail["token"]
                claimedAt[lease] = entry.storedAt
            case .checkpoint, .ended:
                committed[chunk, default: []].append(epoch)
                if latestClaim[chunk] != epoch {
                    violations.append("chunk \(chunk) was committed under epoch \(epoch) after its lease passed to "
                        + "epoch \(latestClaim[chunk] ?? "none")")
                }
                if let output = detail["output"], let key = chunkKeys[chunk],
                   output != "\(key).\(epoch)" + (latestToken[chunk].map { "-\($0)" } ?? "") {
                    violations.append("chunk \(chunk)'s commit under epoch \(epoch) recorded output \(output)")
                }
            case .commitRefused:
                refused += 1
                if let at = entry.storedAt { running.append((lease, at, detail["worker"])) }
            case .fenced:
                if let after = detail["after_claim"].flatMap(Double.init) { fences.append((lease, after, detail["worker"])) }
            default:
                continue
            }
        }
        for chunk in chunkKeys.keys.sorted() where committed[chunk]?.count != 1 {
            violations.append("chunk \(chunk) was committed \(committed[chunk]?.count ?? 0) times")
        }
        for fence in fences {
            if let claimed = claimedAt[fence.lease] {
                running.append((fence.lease, claimed.addingTimeInterval(fence.afterClaim), fence.worker))
            }
        }
        let allowance = rescueInterval / .seconds(1)
        overruns = running.compactMap { sign in
            guard let rescued = rescuedAt[sign.lease] else { return nil }
            let past = sign.at.timeIntervalSince(rescued)
            return past > allowance
                ? Overrun(chunk: sign.lease.chunk, epoch: sign.lease.epoch, worker: sign.worker, secondsPastRescue: past) : nil
        }
        self.violations = violations
        refusedCommits = refused
        self.rescues = rescues
    }

    /// One claim of one chunk.
    private struct Lease: Hashable {
        let chunk: Int
        let epoch: String
    }

    private static func package(in chunkKeys: [Int: String]) -> Int? {
        chunkKeys.first { $0.value == "package" }?.key
    }
}
