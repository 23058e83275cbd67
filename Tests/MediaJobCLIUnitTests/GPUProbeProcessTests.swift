import Testing
@testable import PhotoCommands
@testable import MediaJobCLI

/// Whether a command line starts the GPU probe child is read from the parsed options, so every
/// spelling the parser accepts counts.
@Suite struct GPUProbeProcessTests {
    private func probesAtOnce(_ command: any Command.Type, _ arguments: [String]) throws -> Bool {
        GPUProbeProcess.probesAtOnce(try ParsedArguments(command: command.name, arguments: arguments,
                                                      specs: command.options + [CommonOptions.help]))
    }

    @Test func gpuOffWrittenWithAnEqualsSignKeepsTheProbeAway() throws {
        #expect(try !probesAtOnce(ExportCommand.self, ["project", "--gpu=off"]))
        #expect(try !probesAtOnce(CompressCommand.self, ["in.jpg", "--output", "out", "--gpu=off"]))
    }

    @Test func gpuOffAsTwoWordsKeepsTheProbeAway() throws {
        #expect(try !probesAtOnce(ExportCommand.self, ["project", "--gpu", "off"]))
    }

    @Test func exportProbesUnlessTold() throws {
        #expect(try probesAtOnce(ExportCommand.self, ["project"]))
    }

    @Test func compressProbesAtOnceWhenItResizesOrRequiresTheGPU() throws {
        #expect(try probesAtOnce(CompressCommand.self, ["in.jpg", "--output", "out", "--max-size", "1600", "--gpu=auto"]))
        #expect(try probesAtOnce(CompressCommand.self, ["in.mp4", "--output", "out", "--gpu=on"]))
        #expect(try !probesAtOnce(CompressCommand.self, ["in.mp4", "--output", "out"]))
        #expect(try !probesAtOnce(CompressCommand.self, ["in.jpg", "--output", "out", "--max-size", "1600", "--gpu", "off"]))
    }

    @Test func thumbnailsProbeOnlyWithGPUOn() throws {
        #expect(try !probesAtOnce(ThumbnailCommand.self, ["a.jpg", "--output", "t"]))
        #expect(try probesAtOnce(ThumbnailCommand.self, ["a.jpg", "--output", "t", "--gpu=on"]))
    }

    @Test func commandsThatRenderNothingNeverProbe() throws {
        #expect(try !probesAtOnce(JobsCommand.self, []))
        #expect(try !probesAtOnce(StatusCommand.self, ["1234"]))
    }
}
