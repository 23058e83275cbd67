import Foundation
import JobEngine
import PostgresJobStore
import PostgresTestKit
import Testing

/// A worker on another "machine" (a network namespace reaching PostgreSQL over a veth pair) cut
/// off from the database for longer than its lease (issue 11): it stops its chunk itself, by its own
/// clock, while its renewal is still waiting on the dead link; the chunk is rescued by a worker on
/// this side, and once the link is back it rejoins and takes work again, with nothing committed twice.
@Suite struct WorkerPartitionTests {
    // Network namespaces need root and a container that lets root make them; CI runs as root in
    // such a container. Where they cannot be made the test is skipped, and says why.
    @Test(.enabled(if: VethNamespace.unavailableReason == nil,
                   "network namespaces cannot be made here: \(VethNamespace.unavailableReason ?? "")"))
    func aWorkerCutOffPastItsLeaseLosesItsChunkAndRejoinsWhenTheLinkIsBack() async throws {
        let network = try VethNamespace()
        try await ThrowawayPostgresCluster.with(listen: network.hostNetwork) { cluster in
            let fixture = CLIFixture()
            let store = cluster.url
            let remoteStore = store.replacingOccurrences(of: "@127.0.0.1:", with: "@\(network.hostAddress):")
            #expect(remoteStore != store, "the worker behind the veth pair reaches the server at \(network.hostAddress)")
            let reader = try PostgresJobStore(store)
            // Units of 1.5 s (3 s for odd ones), longer than the remote worker's 1 s lease: its chunk
            // is still running when its fence, 0.9 s after its claim, stops it.
            let units = 3
            let first = try submitDetached(units: units, unitMilliseconds: 1500, in: fixture, store: store)

            // The remote worker claims the first chunk and is held there; the link goes down; then
            // it runs the chunk, with no way to renew its lease or commit.
            let hold = try HeldStep(in: fixture.folder, name: "remote.fifo")
            let remote = try fixture.startWorker("remote", store: remoteStore, lease: "1",
                                                 environment: hold.environment(point: "chunk", hit: 1), launcher: network.launcher)
            try #require(hold.waitUntil(remote, isHeldAt: "the first chunk of the worker behind the veth pair"))
            try network.linkDown()
            hold.release()

            let local = try fixture.startWorker("local", store: store, slots: 2, lease: "1")
            try await waitUntil("job \(first.short) is completed on this side while the link is down", limit: .seconds(120)) {
                try reader.job(first)?.state == .completed
            }
            local.send(SIGTERM)
            #expect(local.finish("stop after SIGTERM").status == 0)
            // The fence does not wait for the renewal, which waits on the dead link.
            #expect(remote.waitForStderr(containing: "lost the lease on chunk 1 of job \(first.short)"),
                    "the cut-off worker stopped its chunk while the link was still down")
            let linkBack = Date()

            // Link up: the remote worker learns it lost the lease (at its renewal, or by a refused
            // commit) and takes the next job's chunks, alone now.
            try network.linkUp()
            let secondFixture = CLIFixture() // a second job, publishing to a folder of its own
            let second = try submitDetached(units: units, unitMilliseconds: 100, in: secondFixture, store: store)
            try await waitUntil("job \(second.short) is completed by the worker behind the veth pair, the link back up",
                                limit: .seconds(120)) {
                try reader.job(second)?.state == .completed
            }
            remote.send(SIGTERM)
            let ended = remote.finish("stop after SIGTERM")
            #expect(ended.status == 0, "\(ended.stderr)")

            let firstJournal = try reader.journal(of: first)
            let remoteEntries = { (journal: [JournalEntry], event: JournalEntry.Event) in
                journal.filter { $0.event == event && $0.detail["worker"]?.hasSuffix(":\(remote.pid)") == true }
            }
            #expect(remoteEntries(firstJournal, .claimed).map { $0.detail["chunk"] } == ["1"])
            #expect(remoteEntries(firstJournal, .checkpoint).isEmpty, "the cut-off worker committed nothing of the first job")
            #expect(remoteEntries(firstJournal, .commitRefused).isEmpty, "the cut-off worker never tried to commit")
            // Its journal entry of the stop, written once the link was back, is stamped (by the clock
            // this side shares) before the link came back; placed on the database's clock, the stop
            // came no later than the rescue interval after the rescue (the lease check's overruns).
            let fences = remoteEntries(firstJournal, .fenced)
            #expect(fences.map { $0.detail["chunk"] } == ["1"], "the cut-off worker journalled its stop: \(fences)")
            if let fence = fences.first {
                #expect(fence.at < linkBack, "stopped at \(fence.at), before the link came back at \(linkBack)")
            }
            let firstCheck = try leaseCheck(firstJournal, of: first, in: reader)
            #expect(firstCheck.violations == [])
            #expect(firstCheck.overruns == [])
            #expect(firstCheck.rescues == 1)
            #expect(firstJournal.contains { entry in
                entry.event == .claimed && entry.detail["chunk"] == "1"
                    && entry.detail["rescued_from"]?.hasSuffix(":\(remote.pid)") == true
            }, "chunk 1 was rescued from the cut-off worker")
            let firstResult = try fixture.result()
            #expect(firstResult.committed == Array(0..<units))
            #expect((1...2).contains(firstResult.executions["1"] ?? 0), "unit 1 ran on both sides at most")
            #expect((0..<units).filter { $0 != 1 }.allSatisfy { firstResult.executions[String($0)] == 1 })

            let secondJournal = try reader.journal(of: second)
            // It is the only worker now. Its first calls after the link came back may wait out TCP's
            // retransmission backoff past its 1 s lease, so it may have to rescue a chunk of its own
            // (seen once in CI under load); the lease check proves nothing was committed twice.
            let claimedByRemote = Set(remoteEntries(secondJournal, .claimed).compactMap { $0.detail["chunk"] })
            #expect(claimedByRemote.isSuperset(of: (0..<units).map(String.init)), "the rejoined worker ran the whole second job")
            let secondCheck = try leaseCheck(secondJournal, of: second, in: reader)
            #expect(secondCheck.violations == [])
            #expect(secondCheck.overruns == [])
            let secondResult = try secondFixture.result()
            #expect(secondResult.committed == Array(0..<units))
        }
    }
}
