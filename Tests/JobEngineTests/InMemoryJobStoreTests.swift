import EngineTestKit
import JobEngine
import JobStoreConformance
import Testing

/// The engine tests' store keeps the same contract as the real ones.
struct InMemoryJobStoreTests {
    @Test(arguments: JobStoreContract.all)
    func keepsTheStoreContract(_ clause: JobStoreContract) throws {
        let store = InMemoryJobStore()
        try clause.check { store }
    }
}
