// lease-bench: claim→commit cycles of empty chunks through PostgresJobStore, for Scripts/bench
// scenario 7.
//
//   lease-bench URL --workers N --chunks M
//
// Makes a schema of its own in the database URL names, stores one running job of M chunks, and
// lets N workers of one slot each claim chunks until none is left (the package stage included),
// each on its own connection, and commit them as `mediajob worker` does: through a LeaseCommitter
// of its own (on a second connection), which lands the commits waiting in one transaction while
// the slot claims its next chunk, so the bench measures what a worker does. Prints one JSON
// object: wall seconds (until every commit landed), cycles per second, and the claim latency's
// median and 99th percentile in milliseconds. Drops the schema afterwards.
import Dispatch
import Foundation
import JobEngine
import Postgres
import PostgresJobStore
import Synchronization
import TaskContract

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("lease-bench: \(message)\n".utf8))
    exit(64)
}

let arguments = CommandLine.arguments.dropFirst()
guard let url = arguments.first, !url.hasPrefix("--") else { fail("usage: lease-bench URL --workers N --chunks M") }
func integer(_ option: String) -> Int {
    guard let at = arguments.firstIndex(of: option), arguments.index(after: at) < arguments.endIndex,
          let value = Int(arguments[arguments.index(after: at)]), value > 0 else { fail("\(option) needs a positive number") }
    return value
}
let workers = integer("--workers"), chunks = integer("--chunks")

let schema = "lease_bench_" + UUID().uuidString.lowercased().filter { $0 != "-" }
do {
    try Connection(url).query("CREATE SCHEMA \(schema)")
} catch {
    fail("\(error)")
}
defer { _ = try? Connection(url).query("DROP SCHEMA \(schema) CASCADE") }

do {
    let settings = ["search_path": schema]
    let identifier = try TaskIdentifier("mediajob.bench.\(UUID().uuidString.lowercased())")
    let job = try PostgresJobStore(url, settings: settings).insert(JobRecord(
        id: JobID.make(), kind: "bench", request: try TaskRequest(identifier: identifier, title: "Lease bench", subtitle: "claims"),
        spec: Data("{}".utf8), workKey: "lease-bench", destination: "/dev/null", workspace: "/tmp", overwrite: true,
        state: .running, progress: ProgressSnapshot(unitsTotal: chunks, costs: UnitCostModel())), chunks: (0..<chunks).map {
            PlannedChunk(key: "c\($0)", stage: .render)
        })
    let stores = try (0..<workers).map { _ in try PostgresJobStore(url, settings: settings) }
    let committers = try (0..<workers).map { _ in
        LeaseCommitter(store: try PostgresJobStore(url, settings: settings), allowance: CommitAllowance(slots: 1))
    }
    let latencies = Mutex<[Double]>([])
    let failures = Mutex<[String]>([])
    let clock = ContinuousClock()
    let start = clock.now
    DispatchQueue.concurrentPerform(iterations: workers) { worker in
        let store = stores[worker], committer = committers[worker]
        var snapshot = job.progress
        var mine: [Double] = []
        do {
            while true {
                let asked = clock.now
                guard let lease = try store.claimChunk(worker: "bench-\(worker)", lease: .seconds(30)) else {
                    // The package stage is claimed once every chunk's commit landed.
                    if committer.waitUntilLanded() { continue }
                    break
                }
                mine.append((clock.now - asked) / .milliseconds(1))
                snapshot.unitsDone += 1
                committer.submit(lease, checkpoint: Checkpoint(
                    jobID: job.id, chunkIndex: lease.chunkIndex, stage: lease.plan.stage, kind: job.kind, costSeconds: 0,
                    executor: "cpu", progress: snapshot)) { answer in
                    if case .failure(let error) = answer { failures.withLock { $0.append("\(error)") } }
                }
            }
        } catch {
            failures.withLock { $0.append("\(error)") }
        }
        committer.finish()
        latencies.withLock { $0 += mine }
    }
    let seconds = (clock.now - start) / .seconds(1)
    if let failure = failures.withLock({ $0.first }) { fail(failure) }
    let sorted = latencies.withLock { $0 }.sorted()
    func percentile(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int((Double(sorted.count) * p).rounded(.up)) - 1)] }
    let report: [String: Double] = [
        "workers": Double(workers), "cycles": Double(sorted.count), "seconds": seconds,
        "cycles_per_s": Double(sorted.count) / seconds, "claim_p50_ms": percentile(0.5), "claim_p99_ms": percentile(0.99),
    ]
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    print(String(decoding: try encoder.encode(report), as: UTF8.self))
} catch {
    fail("\(error)")
}
