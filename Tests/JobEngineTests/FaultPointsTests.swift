import Glibc
@testable import JobEngine
import Testing

@Suite struct FaultPointsTests {
    @Test func aFaultIsAPointAHitAndAnActionThatDefaultsToKill() throws {
        let kill = try #require(FaultPoints.parse("checkpoint:3"))
        #expect(kill.point == .checkpoint && kill.hit == 3 && kill.action == .kill)
        let error = try #require(FaultPoints.parse("fsync:2:ENOSPC"))
        #expect(error.point == .fsync && error.hit == 2 && error.action == .fail(ENOSPC))
        #expect(FaultPoints.parse("commit.write:1:kill")?.action == .kill)
        let hold = try #require(FaultPoints.parse("chunk:2:hold:/tmp/a:b.fifo"))
        #expect(hold.point == .chunk && hold.hit == 2 && hold.action == .hold("/tmp/a:b.fifo"), "the pipe's path may hold colons")
        #expect(FaultPoints.parse("plan:1:hold:/x")?.point == .plan)
    }

    @Test(arguments: ["", "fsync", "fsync:0", "fsync:-1", "fsync:x", "fsync:1:EWHATEVER", "nowhere:1", "fsync:1:EIO:extra",
                       "chunk:1:hold", "chunk:1:hold:", "chunk:1:hold:relative.fifo", "chunk:1:wait:/x"])
    func anythingElseArmsNothing(text: String) {
        #expect(FaultPoints.parse(text) == nil)
    }

    @Test func withNothingArmedAStepJustRuns() throws {
        var ran = false
        try FaultPoints.step(.rename, operation: "rename", path: "/nowhere") { ran = true }
        #expect(ran)
    }

    @Test func anArmedPointFailsItsHitAndNoOtherPass() async {
        // In a child process: arming is process-wide, and other suites' steps run meanwhile here.
        await #expect(processExitsWith: .success) {
            FaultPoints.arm("rename:2:EIO")
            var runs = 0
            try FaultPoints.step(.rename, operation: "rename", path: "/first") { runs += 1 }
            var failure: FileSystemError?
            do {
                try FaultPoints.step(.rename, operation: "rename", path: "/second") { runs += 1 }
            } catch let error as FileSystemError {
                failure = error
            }
            try FaultPoints.step(.rename, operation: "rename", path: "/third") { runs += 1 }
            guard runs == 2, failure == FileSystemError("rename", path: "/second", code: EIO) else { exit(1) }
        }
    }

    @Test func pointsArmedTogetherEachCountTheirOwnPasses() async {
        await #expect(processExitsWith: .success) {
            FaultPoints.arm("rename:2:EIO,fsync:1:ENOSPC")
            var runs = 0
            try FaultPoints.step(.rename, operation: "rename", path: "/first") { runs += 1 }
            let sync = Result { try FaultPoints.step(.fsync, operation: "fsync", path: "/folder") { runs += 1 } }
            let rename = Result { try FaultPoints.step(.rename, operation: "rename", path: "/second") { runs += 1 } }
            guard runs == 1,
                  case .failure(let syncError as FileSystemError) = sync, syncError == FileSystemError("fsync", path: "/folder", code: ENOSPC),
                  case .failure(let renameError as FileSystemError) = rename, renameError == FileSystemError("rename", path: "/second", code: EIO)
            else { exit(1) }
        }
    }

    @Test func aMalformedPartArmsNothing() async {
        await #expect(processExitsWith: .success) {
            FaultPoints.arm("rename:1:EIO,nowhere:1")
            var ran = false
            try FaultPoints.step(.rename, operation: "rename", path: "/nowhere") { ran = true }
            guard ran else { exit(1) }
        }
    }

    @Test func theEnvironmentAloneArmsNothing() async {
        await #expect(processExitsWith: .success) {
            setenv("MEDIAJOB_FAULT", "rename:1:EIO", 1)
            var ran = false
            try FaultPoints.step(.rename, operation: "rename", path: "/nowhere") { ran = true }
            guard ran else { exit(1) }
        }
    }
}
