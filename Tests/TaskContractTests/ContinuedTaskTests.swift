import Foundation
import Synchronization
import Testing
import TaskContract

/// Collects what a task tells its observers.
final class EventLog: Sendable {
    private let storage = Mutex<[TaskEvent]>([])

    var events: [TaskEvent] { storage.withLock { $0 } }

    func record(_ event: TaskEvent) { storage.withLock { $0.append(event) } }
}

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let storage = Mutex(0)

    var count: Int { storage.withLock { $0 } }

    func increment() { storage.withLock { $0 += 1 } }
}

func makeTask(unitsTotal: Int = 4) throws -> ContinuedTask {
    let request = try TaskRequest(identifier: try TaskIdentifier("mediajob.export.*").unique(), title: "Exporting Holiday",
                                  subtitle: try TaskSubtitle("render 0/\(unitsTotal)"))
    return ContinuedTask(request: request, progress: ProgressSnapshot(unitsTotal: unitsTotal, costs: UnitCostModel()))
}

func snapshot(fraction: Double, unitsDone: Int, unitsTotal: Int = 4) -> ProgressSnapshot {
    var snapshot = ProgressSnapshot(unitsTotal: unitsTotal, costs: UnitCostModel())
    snapshot.bar = CostBar(fraction: fraction)
    snapshot.unitsDone = unitsDone
    return snapshot
}

struct ContinuedTaskTests {
    @Test func taskStartsFromTheRequestAndTheGivenProgress() throws {
        let request = try TaskRequest(identifier: try TaskIdentifier("mediajob.export.*").unique(), title: "Exporting", subtitle: "encode 2/4")
        let stored = snapshot(fraction: 0.4, unitsDone: 2)
        let task = ContinuedTask(request: request, progress: stored)
        #expect(task.identifier == request.identifier)
        #expect(task.title == "Exporting")
        #expect(task.subtitle == "encode 2/4")
        #expect(task.progress == stored)
        #expect(!task.isExpired)
        #expect(task.outcome == nil)
    }

    @Test func updateTitleChangesTheWordsAndSendsTitleChanged() throws {
        let task = try makeTask()
        let log = EventLog()
        task.observe(log.record)
        task.updateTitle("Exporting Trip", subtitle: "encode 3/4")
        #expect(task.title == "Exporting Trip")
        #expect(task.subtitle == "encode 3/4")
        #expect(log.events == [.titleChanged(title: "Exporting Trip", subtitle: "encode 3/4")])
    }

    @Test func expireRunsTheHandlerExactlyOnceEvenWhenCalledTwice() throws {
        let task = try makeTask()
        let log = EventLog()
        let calls = CallCounter()
        task.observe(log.record)
        task.expirationHandler = { calls.increment() }
        task.expire()
        task.expire()
        #expect(task.isExpired)
        #expect(calls.count == 1)
        #expect(log.events == [.expired])
    }

    @Test func handlerSetAfterExpiryRunsAtOnce() throws {
        let task = try makeTask()
        task.expire()
        let calls = CallCounter()
        task.expirationHandler = { calls.increment() }
        #expect(calls.count == 1)
    }

    @Test func handlerSetBeforeExpiryWaitsForIt() throws {
        let task = try makeTask()
        let calls = CallCounter()
        task.expirationHandler = { calls.increment() }
        #expect(calls.count == 0)
        task.expire()
        #expect(calls.count == 1)
    }

    @Test func expiryAfterCompletionDoesNothing() throws {
        let task = try makeTask()
        let calls = CallCounter()
        task.expirationHandler = { calls.increment() }
        task.setTaskCompleted(.completed)
        task.expire()
        #expect(!task.isExpired)
        #expect(calls.count == 0)
    }

    @Test func publishNeverLowersTheFraction() throws {
        let task = try makeTask()
        let log = EventLog()
        task.observe(log.record)
        task.publish(snapshot(fraction: 0.5, unitsDone: 2))
        task.publish(snapshot(fraction: 0.3, unitsDone: 3))
        #expect(task.progress.fraction == 0.5)
        #expect(task.progress.unitsDone == 3)
        #expect(log.events == [.progress(snapshot(fraction: 0.5, unitsDone: 2)),
                               .progress(snapshot(fraction: 0.5, unitsDone: 3))])
    }

    @Test func publishRaisesTheFraction() throws {
        let task = try makeTask()
        task.publish(snapshot(fraction: 0.25, unitsDone: 1))
        task.publish(snapshot(fraction: 0.75, unitsDone: 3))
        #expect(task.progress == snapshot(fraction: 0.75, unitsDone: 3))
    }

    @Test func completionRecordsTheOutcomeAndTellsObservers() throws {
        let task = try makeTask()
        let log = EventLog()
        task.observe(log.record)
        task.setTaskCompleted(.failed(.noSpace))
        #expect(task.outcome == .failed(.noSpace))
        #expect(log.events == [.completed(.failed(.noSpace))])
    }

    @Test func eventsStreamEndsAfterCompletion() async throws {
        let task = try makeTask()
        let stream = task.events()
        task.updateTitle("Exporting", subtitle: "encode 1/4")
        task.publish(snapshot(fraction: 0.2, unitsDone: 1))
        task.expire()
        task.setTaskCompleted(.paused)
        var received: [TaskEvent] = []
        for await event in stream { received.append(event) }
        #expect(received == [
            .titleChanged(title: "Exporting", subtitle: "encode 1/4"),
            .progress(snapshot(fraction: 0.2, unitsDone: 1)),
            .expired,
            .completed(.paused),
        ])
    }

    @Test func everyObserverHearsEveryEvent() throws {
        let task = try makeTask()
        let first = EventLog(), second = EventLog()
        task.observe(first.record)
        task.observe(second.record)
        task.setTaskCompleted(.completed)
        #expect(first.events == [.completed(.completed)])
        #expect(second.events == first.events)
    }

    @Test func completedIsTheLastEventEvenIfTheTaskIsUsedAfterwards() throws {
        let task = try makeTask()
        let log = EventLog()
        task.observe(log.record)
        task.setTaskCompleted(.completed)
        task.publish(snapshot(fraction: 0.9, unitsDone: 4))
        task.updateTitle("Exported", subtitle: "done")
        #expect(log.events.last == .completed(.completed))
    }

    @Test func completingTwiceStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let request = try TaskRequest(identifier: try TaskIdentifier("mediajob.export.*").unique(), title: "Exporting",
                                          subtitle: "render")
            let task = ContinuedTask(request: request,
                                     progress: ProgressSnapshot(unitsTotal: 1, costs: UnitCostModel()))
            task.setTaskCompleted(.completed)
            task.setTaskCompleted(.failed(.internal))
        }
    }

    @Test func completingOnceDoesNotStopTheProcess() async {
        await #expect(processExitsWith: .success) {
            let request = try TaskRequest(identifier: try TaskIdentifier("mediajob.export.*").unique(), title: "Exporting",
                                          subtitle: "render")
            let task = ContinuedTask(request: request,
                                     progress: ProgressSnapshot(unitsTotal: 1, costs: UnitCostModel()))
            task.setTaskCompleted(.completed)
        }
    }
}
