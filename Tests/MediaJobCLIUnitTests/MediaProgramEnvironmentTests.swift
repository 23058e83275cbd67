import MediaJobCLI
import Testing

/// The environment `mediajob` hands `mediajob-media` when it replaces itself with it (issue 15).
@Suite struct MediaProgramEnvironmentTests {
    @Test func mediajobMediaStartsWithOneOpenBLASThreadAndTwoMallocArenas() {
        let environment = MediaProgram.environment(from: ["PATH=/usr/bin", "HOME=/root"])
        #expect(environment == ["PATH=/usr/bin", "HOME=/root", "MALLOC_ARENA_MAX=2", "OPENBLAS_NUM_THREADS=1"])
    }

    @Test func aValueThePersonSetIsKeptWhereItWas() {
        let current = ["OPENBLAS_NUM_THREADS=4", "PATH=/usr/bin", "MALLOC_ARENA_MAX=", "OPENBLAS_NUM_THREADS_X=1"]
        #expect(MediaProgram.environment(from: current) == current)
    }
}
