@testable import MediaCommands
@testable import MediaJobCLI
import PhotoCommands
import Testing

/// Which commands `mediajob` hands to `mediajob-media`: those whose work needs the media libraries,
/// each with its work there, and none of the commands on stored jobs (issue 15).
@Suite struct MediaCommandTests {
    @Test func everyMediaCommandHasItsWorkInMediaCommands() {
        let media = Commands.all.filter { $0 is any MediaCommand.Type }
        #expect(media.map { $0.name } == ["init", "export", "thumbnail", "compress", "selftest", "worker", "resume", "restart", "probe"])
        #expect(media.filter { !($0 is any CommandWork.Type) }.map { $0.name } == [])
    }

    @Test func theCommandsOnStoredJobsAndHelpRunInMediajob() {
        let own = Commands.all.filter { !($0 is any MediaCommand.Type) }.map { $0.name }
        #expect(own == ["jobs", "status", "cancel", "discard", "prune", "completion", "help"])
    }

    @Test func thumbnailRunsGoToMediajobPhotoAndEveryOtherMediaCommandToMediajobMedia() {
        let media = Commands.all.filter { $0 is any MediaCommand.Type }
        #expect(media.filter { $0.program == MediaProgram.photoFileName }.map { $0.name } == ["thumbnail"])
        #expect(media.filter { $0.program == MediaProgram.fileName }.count == media.count - 1)
    }
}
