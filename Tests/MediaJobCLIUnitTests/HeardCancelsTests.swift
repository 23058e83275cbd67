import JobEngine
@testable import PhotoCommands
import Testing

/// A cancel heard after a slot noted the count is found for that job alone; one heard before is not.
struct HeardCancelsTests {
    @Test func aCancelHeardSinceTheCountWasNotedIsFoundForItsJobOnly() {
        let cancels = HeardCancels()
        let (job, other) = (JobID(rawValue: "a"), JobID(rawValue: "b"))
        let before = cancels.count
        #expect(!cancels.wasHeard(job, since: before))
        cancels.heard([job])
        #expect(cancels.wasHeard(job, since: before))
        #expect(!cancels.wasHeard(other, since: before))
        #expect(!cancels.wasHeard(job, since: cancels.count), "heard before this count was noted")
    }
}
