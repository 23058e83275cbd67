import EngineTestKit
import Foundation
@testable import JobEngine
import Synchronization
import TaskContract
import Testing

/// A job longer than a page of chunks: the runner reads its chunks from the store a page at a time.
struct ChunkPagesTests {
    @Test func aJobStoppedInItsSecondPageRunsEachChunkInOrderAndResumesWithWhatItOwes() async throws {
        let units = ChunkPages.pageSize + 8, stopAt = ChunkPages.pageSize + 2
        let stopped = Mutex(false)
        let order = Mutex<[Int]>([])
        let fixture = try EngineFixture { index, context in
            order.withLock { $0.append(index) }
            if index == stopAt, !stopped.withLock({ $0 }) {
                stopped.withLock { $0 = true }
                context.task.expire()
            }
        }
        let handle = try fixture.submit(fixture.spec(units: units))
        #expect(await fixture.scheduler.run(handle) == .paused)
        #expect(order.withLock { $0 } == Array(0...stopAt))
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(order.withLock { $0 } == Array(0...stopAt) + Array(stopAt..<units),
                "the stopped chunk runs again, then the rest in order; none of the first page runs again")
        #expect(fixture.job.log.commits == Dictionary(uniqueKeysWithValues: (0..<units).map { ($0, 1) }))
        #expect(fixture.result() == ScriptedJob.expectedResult(units: units))
    }
}
