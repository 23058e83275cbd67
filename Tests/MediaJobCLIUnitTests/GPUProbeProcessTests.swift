import Testing
@testable import PhotoCommands
@testable import MediaJobCLI

/// Whether a command line starts the GPU probe child is read from the parsed options, so every
/// spelling the parser accepts counts.
@Suite struct GPUProbeProcessTests {
    private func mayRender(_ command: any Command.Type, _ arguments: [String]) throws -> Bool {
        GPUProbeProcess.mayRender(try ParsedArguments(command: command.name, arguments: arguments,
                                                      specs: command.options + [CommonOptions.help]))
    }

    @Test func gpuOffWrittenWithAnEqualsSignKeepsTheProbeAway() throws {
        #expect(try !mayRender(ExportCommand.self, ["project", "--gpu=off"]))
        #expect(try !mayRender(CompressCommand.self, ["in.jpg", "--output", "out", "--gpu=off"]))
    }

    @Test func gpuOffAsTwoWordsKeepsTheProbeAway() throws {
        #expect(try !mayRender(ExportCommand.self, ["project", "--gpu", "off"]))
    }

    @Test func exportAndCompressProbeUnlessTold() throws {
        #expect(try mayRender(ExportCommand.self, ["project"]))
        #expect(try mayRender(CompressCommand.self, ["in.jpg", "--output", "out", "--gpu=auto"]))
    }

    @Test func thumbnailsProbeOnlyWithGPUOn() throws {
        #expect(try !mayRender(ThumbnailCommand.self, ["a.jpg", "--output", "t"]))
        #expect(try mayRender(ThumbnailCommand.self, ["a.jpg", "--output", "t", "--gpu=on"]))
    }

    @Test func commandsThatRenderNothingNeverProbe() throws {
        #expect(try !mayRender(JobsCommand.self, []))
        #expect(try !mayRender(StatusCommand.self, ["1234"]))
    }
}
