import Dispatch
import Foundation
import JobEngine
import JobStoreConformance
import Postgres
import PostgresJobStore
import PostgresTestKit
import Synchronization
import Testing

/// A store outlives a restart of its server: the call that finds the connection lost waits for
/// the server with backoff, reconnects, and completes.
struct ServerRestartTests {
    @Test func aCallMadeWhileTheServerIsDownCompletesOnceItIsBack() async throws {
        try await ThrowawayPostgresCluster.with { cluster in
            let store = try PostgresJobStore(cluster.url)
            let job = try store.insert(try makeJob(), chunks: makeChunks(2))
            try cluster.stop()

            let read = Mutex<Result<JobRecord?, any Error>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                read.withLock { $0 = Result { try store.job(job.id) } }
                done.signal()
            }
            // The call is under way while the server is down (starting it takes far longer than a try).
            try cluster.start()
            #expect(done.wait(timeout: .now() + 60) == .success, "the call returned within 60 s of the server's restart")
            let record = try #require(try read.withLock { $0 }?.get())
            #expect(record.id == job.id)
            #expect(try store.chunks(of: job.id).count == 2)
        }
    }

    /// A store told to stop reconnecting (a worker that stops) does not remake a connection the
    /// server's restart ended, although the server is back; a store not told so remakes its own.
    @Test func aStoreToldToStopReconnectingLeavesItsLostConnectionLost() async throws {
        try await ThrowawayPostgresCluster.with { cluster in
            let stopping = try PostgresJobStore(cluster.url)
            let going = try PostgresJobStore(cluster.url)
            let job = try going.insert(try makeJob(), chunks: makeChunks(1))
            #expect(try stopping.job(job.id) != nil, "connected before the restart")
            try cluster.stop()
            stopping.stopReconnecting(at: .now)
            try cluster.start()
            #expect(throws: PostgresError.self, "its connection ended with the server and is not remade") {
                try stopping.job(job.id)
            }
            #expect(try going.job(job.id)?.id == job.id, "the other store remade its connection")
        }
    }
}
