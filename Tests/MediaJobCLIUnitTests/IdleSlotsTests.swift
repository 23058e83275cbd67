import Foundation
@testable import PhotoCommands
import Testing

/// An idle slot's wait ends early once work is announced, and at once when it was announced
/// between the slot's look for a chunk and its wait. Every wait here is bounded by its own length:
/// a wait of 600 s that ends within half of it was ended by the announcement. (No deadline of the
/// test's own: tests beside these may keep the task pool busy for minutes.)
struct IdleSlotsTests {
    @Test func aLongWaitEndsWhenWorkIsAnnounced() async throws {
        let slots = IdleSlots()
        let seen = slots.generation
        let began = ContinuousClock.now
        async let waited: Void = slots.wait(upTo: .seconds(600), unlessAnnouncedSince: seen)
        while slots.waitingSlots == 0, ContinuousClock.now - began < .seconds(300) { try await Task.sleep(for: .milliseconds(5)) }
        try #require(slots.waitingSlots == 1, "the slot began its wait")
        slots.wakeAll()
        await waited
        #expect(ContinuousClock.now - began < .seconds(300), "the announcement, not its length, ended the wait")
        #expect(slots.waitingSlots == 0)
    }

    @Test func workAnnouncedSinceTheLookEndsTheWaitAtOnce() async {
        let slots = IdleSlots()
        let seen = slots.generation
        slots.wakeAll()
        let began = ContinuousClock.now
        await slots.wait(upTo: .seconds(600), unlessAnnouncedSince: seen)
        #expect(ContinuousClock.now - began < .seconds(300), "the wait did not begin: work came since the look")
        #expect(slots.waitingSlots == 0)
    }

    @Test func withoutWorkTheWaitLastsItsLength() async {
        let slots = IdleSlots()
        await slots.wait(upTo: .milliseconds(50), unlessAnnouncedSince: slots.generation)
        #expect(slots.waitingSlots == 0, "the wait ended by its length and left nothing waiting")
    }
}
