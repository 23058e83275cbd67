import EngineTestKit
import Foundation
import JobEngine
import Synchronization
import TaskContract
import Testing

@Suite struct RunnerTests {
    @Test func aJobRunsEveryChunkOnceAndPublishesItsResult() async throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec(units: 5))
        let outcome = await fixture.scheduler.run(handle)
        #expect(outcome == .completed)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 5))
        #expect(fixture.job.log.commits == [0: 1, 1: 1, 2: 1, 3: 1, 4: 1])
        let job = try #require(try fixture.store.job(handle.id))
        #expect(job.state == .completed)
        #expect(job.progress.fraction == 1)
        #expect(try fixture.store.chunks(of: handle.id).allSatisfy { $0.isDone && $0.executor == "cpu" })
        #expect(handle.task.outcome == .completed)
        #expect(!FileManager.default.fileExists(atPath: job.workspace), "the workspace of a finished job is removed")
    }

    @Test func theJournalRecordsEveryLifecycleStepInOrder() async throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec(units: 3))
        _ = await fixture.scheduler.run(handle)
        let events = try fixture.store.journal(of: handle.id).map(\.event)
        #expect(events == [.submitted, .started, .progressFirst, .checkpoint, .checkpoint, .checkpoint, .ended])
        #expect(try fixture.store.journal(of: handle.id).last?.detail["outcome"] == "completed")
    }

    @Test func progressIsNeverAheadOfTheStoreAndStaysMonotoneAndCapped() async throws {
        let fixture = try EngineFixture()
        let handle = try fixture.submit(fixture.spec(units: 9))
        let seen = Mutex<[ProgressSnapshot]>([])
        let violations = Mutex<[String]>([])
        let store = fixture.store, id = handle.id
        handle.task.observe { event in
            guard case .progress(let snapshot) = event else { return }
            seen.withLock { $0.append(snapshot) }
            let stored = (try? store.job(id))?.progress
            let done = (try? store.chunks(of: id))?.filter(\.isDone).count ?? -1
            if stored != snapshot { violations.withLock { $0.append("snapshot not stored yet") } }
            if done < snapshot.unitsDone { violations.withLock { $0.append("\(snapshot.unitsDone) shown, \(done) stored") } }
        }
        _ = await fixture.scheduler.run(handle)
        let fractions = seen.withLock { $0.map(\.fraction) }
        #expect(violations.withLock { $0 }.isEmpty)
        #expect(fractions.count == 10)
        #expect(zip(fractions, fractions.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(fractions.dropLast().allSatisfy { $0 <= CostBar.cap })
        #expect(fractions.last == 1)
    }

    @Test func chunksRunInParallelUpToTheRunningProcesssChunksAtOnce() async throws {
        let inFlight = Mutex((now: 0, most: 0))
        let bothStarted = Gate()
        let fixture = try EngineFixture(chunksAtOnce: 2) { _, _ in
            let count = inFlight.withLock { state -> Int in
                state.now += 1
                state.most = max(state.most, state.now)
                return state.now
            }
            if count == 2 { bothStarted.open() }
            try await bothStarted.wait(until: "a second unit ran beside this one")
            inFlight.withLock { $0.now -= 1 }
        }
        let handle = try fixture.submit(fixture.spec(units: 6))
        #expect(await fixture.scheduler.run(handle) == .completed)
        #expect(inFlight.withLock { $0.most } == 2)
        #expect(fixture.result() == ScriptedJob.expectedResult(units: 6))
    }

    @Test func learnedCostsAreKeptForTheNextJobOfTheSameKind() async throws {
        let fixture = try EngineFixture()
        _ = await fixture.scheduler.run(try fixture.submit(fixture.spec(units: 4)))
        let history = try fixture.store.costHistory(kind: "scripted")
        #expect(Set(history.keys) == [.render, .encode, .package])
        #expect(try fixture.scheduler.estimatedSeconds(for: try fixture.submit(fixture.spec(units: 4, name: "b.txt")).id) > 0)
    }
}
