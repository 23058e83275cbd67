import JobEngine

/// Reads a job's journal after a test of leased chunks (faults included) and lists every way it
/// breaks the lease protocol's promises (DESIGN.md §10):
///
/// - every chunk claimed was committed exactly once (one `checkpoint`, or one `ended` for the
///   package stage, with its epoch and output);
/// - no commit came from an epoch that had lost its lease: a commit's epoch is the chunk's latest
///   claim before it;
/// - every output committed is `<key>.<epoch>` of that commit's own epoch, so no two commits share one.
///
/// The journal is the only witness: the check knows nothing of how the test ran.
public struct LeaseJournalCheck: Sendable {
    /// What the journal shows that breaks a promise, one sentence each; empty when it keeps them all.
    public let violations: [String]
    /// How many commits were refused (the stale writers the test made).
    public let refusedCommits: Int
    /// How many claims were rescues of an expired lease.
    public let rescues: Int

    /// Checks `journal`, the whole journal of one job, oldest first.
    /// - Parameter chunkKeys: each chunk index's key (the package stage's included, if it was leased).
    public init(_ journal: [JournalEntry], chunkKeys: [Int: String]) {
        var latestClaim: [Int: String] = [:]
        var committed: [Int: [String]] = [:]
        var violations: [String] = []
        var refused = 0
        var rescues = 0
        for entry in journal {
            let detail = entry.detail
            guard let chunk = detail["chunk"].flatMap(Int.init) ?? (entry.event == .ended ? Self.package(in: chunkKeys) : nil),
                  let epoch = detail["epoch"] else { continue }
            switch entry.event {
            case .claimed:
                latestClaim[chunk] = epoch
                if detail["rescued_from"] != nil { rescues += 1 }
            case .checkpoint, .ended:
                committed[chunk, default: []].append(epoch)
                if latestClaim[chunk] != epoch {
                    violations.append("chunk \(chunk) was committed under epoch \(epoch) after its lease passed to "
                        + "epoch \(latestClaim[chunk] ?? "none")")
                }
                if let output = detail["output"], let key = chunkKeys[chunk], output != "\(key).\(epoch)" {
                    violations.append("chunk \(chunk)'s commit under epoch \(epoch) recorded output \(output)")
                }
            case .commitRefused:
                refused += 1
            default:
                continue
            }
        }
        for chunk in chunkKeys.keys.sorted() where committed[chunk]?.count != 1 {
            violations.append("chunk \(chunk) was committed \(committed[chunk]?.count ?? 0) times")
        }
        self.violations = violations
        refusedCommits = refused
        self.rescues = rescues
    }

    private static func package(in chunkKeys: [Int: String]) -> Int? {
        chunkKeys.first { $0.value == "package" }?.key
    }
}
