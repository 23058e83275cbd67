import EngineTestKit
import Foundation
import JobEngine
import Synchronization
import Testing

/// A bad item is a chunk outcome in the store, skipped or failed, whichever the job asked for.
@Suite struct BadItemTests {
    @Test func failedItemsAreStoredWithTheirChunksAndGoOnceTheChunkRuns() async throws {
        let broken = Mutex<Set<Int>>([1, 3])
        let fixture = try EngineFixture { index, context in
            guard broken.withLock({ $0.contains(index) }) else { return }
            try context.guarding("item \(index)", skipBad: false) { throw ItemFailure(item: "item \(index)", reason: "is corrupt") }
        }
        let handle = try fixture.submit(fixture.spec(units: 5))
        #expect(await fixture.scheduler.run(handle) == .failed(.invalidInput))
        #expect(try fixture.store.badItems(of: handle.id) == [
            BadItem(item: "item 1", reason: "is corrupt", outcome: .failed, chunkIndex: 1),
            BadItem(item: "item 3", reason: "is corrupt", outcome: .failed, chunkIndex: 3),
        ])

        broken.withLock { $0 = [3] }
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .failed(.invalidInput))
        #expect(try fixture.store.badItems(of: handle.id).map(\.chunkIndex) == [3], "chunk 1 ran: its failure went")
    }

    @Test func skippedItemsAreStoredWithTheCheckpointGivenToFinalisationAndNotTriedAgain() async throws {
        let stopAfterSkip = Mutex(true)
        let fixture = try EngineFixture { index, context in
            if index == 1 {
                let skipped = try context.guarding("item 1", skipBad: true) { throw ItemFailure(item: "item 1", reason: "is corrupt") }
                #expect(skipped)
            }
            if index == 2, stopAfterSkip.withLock({ $0 }) { context.task.expire() }
        }
        let handle = try fixture.submit(fixture.spec(units: 4))
        #expect(await fixture.scheduler.run(handle) == .paused)
        let skipped = BadItem(item: "item 1", reason: "is corrupt", outcome: .skipped, chunkIndex: 1)
        #expect(try fixture.store.badItems(of: handle.id) == [skipped])

        stopAfterSkip.withLock { $0 = false }
        #expect(await fixture.scheduler.run(try fixture.scheduler.resume(handle.id)) == .completed)
        #expect(fixture.job.log.starts[1] == 1, "a skipped item's chunk is done")
        #expect(try fixture.store.badItems(of: handle.id) == [skipped])
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 4) + "skipped: item 1: is corrupt\n")
    }

    @Test func anErrorThatIsNotAboutTheItemIsNotABadItem() async throws {
        let fixture = try EngineFixture { index, context in
            if index == 0 {
                try context.guarding("item 0", skipBad: true) { throw FileSystemError("write", path: "/x", code: EIO) }
            }
        }
        let handle = try fixture.submit(fixture.spec(units: 2))
        #expect(await fixture.scheduler.run(handle) == .failed(.io))
        #expect(try fixture.store.badItems(of: handle.id).isEmpty)
    }
}
