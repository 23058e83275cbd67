import Foundation
import MediaTestKit
import Testing
import Vips

/// `mediajob-photo` starts libvips without its plugin modules (PDF, OpenSlide, JPEG XL, HEIF,
/// ImageMagick, with their libraries) when every input starts like a format built into libvips and
/// every output format is one, and with them otherwise (issue 15: half of libvips' start-up).
/// What libvips did as it started is read from its own log (`VIPS_INFO`), which names its prefix,
/// each module it loads and where its messages' translations come from.
@Suite struct PhotoProgramModulesTests {

    /// Inputs of every format built into libvips, known by their content: the sample JPEGs (one
    /// rotated by its EXIF tag) and PNG with alpha, and a WebP and a GIF made by `vips`.
    private func builtInInputs(_ fixture: CLIFixture) throws -> [String] {
        let webp = fixture.folder.path("made.webp"), gif = fixture.folder.path("made.gif")
        try PhotoFixtures.picture(webp, width: 300, height: 200)
        try PhotoFixtures.picture(gif, width: 200, height: 300)
        return ["landscape-3000x2000.jpg", "rotated-exif6-1600x1200.jpg", "overlay-alpha-480x480.png"]
            .map { sampleProject.appendingPathComponent($0).path } + [webp, gif]
    }

    /// The files of `folder` by name, with their bytes.
    private func files(_ folder: String) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder)
        return Dictionary(uniqueKeysWithValues: try names.map { ($0, try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))) })
    }

    /// A thumbnail run of `inputs` into `output` with libvips' start logged; `vipsHome`, if given,
    /// as the person's `VIPSHOME`.
    private func thumbnails(_ fixture: CLIFixture, _ inputs: [String], output: String, _ options: [String] = [],
                            vipsHome: String? = nil) throws -> (CLIProcess.Result, VipsStartLog) {
        let environment = ["VIPS_INFO": "1"].merging(vipsHome.map { ["VIPSHOME": $0] } ?? [:]) { $1 }
        let run = try fixture.run("thumbnail", inputs + ["--output", output, "--size", "128"] + options,
                                  environment: environment, launcher: vipsHome == nil ? VipsStartLog.withoutVIPSHOME : [])
        return (run, VipsStartLog(run.stdout))
    }

    @Test(arguments: [[], ["--format", "png"], ["--format", "webp"]])
    func aRunOfBuiltInFormatsStartsWithoutModulesAndMakesTheBytesOfARunWithThem(options: [String]) throws {
        let fixture = CLIFixture()
        let inputs = try builtInInputs(fixture)
        let (without, started) = try thumbnails(fixture, inputs, output: fixture.folder.path("without"), options)
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!started.loadedModules && started.searchedDevNull, "\(without.stdout)")
        // The person's own VIPSHOME, here libvips' prefix (as /usr/bin/vips), keeps the modules.
        let (with, startedWith) = try thumbnails(fixture, inputs, output: fixture.folder.path("with"), options, vipsHome: "/usr")
        #expect(with.status == 0, "\(with.stderr)")
        #expect(startedWith.loadedModules, "\(with.stdout)")
        let made = try files(fixture.folder.path("without"))
        #expect(made.count == inputs.count + 2, "thumbnails, the contact sheet and the index: \(made.keys.sorted())")
        #expect(made == (try files(fixture.folder.path("with"))))
    }

    /// A HEIC is read by libheif's module: the run starts with the modules, and libvips' messages
    /// are translated from where a start without them takes them.
    @Test func aRunWithAHEICStartsWithTheModulesAndReadsIt() throws {
        guard ImageFormat.avif.isAvailable else { return }  // the HEIC is made with libheif's encoder
        let fixture = CLIFixture()
        let heic = fixture.folder.path("made.heic")
        try PhotoFixtures.picture(heic, width: 300, height: 200)
        let photo = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let output = fixture.folder.path("mixed")
        let (mixed, started) = try thumbnails(fixture, [photo, heic], output: output)
        #expect(mixed.status == 0, "\(mixed.stderr)")
        #expect(started.loadedModules && !started.searchedDevNull, "\(mixed.stdout)")
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: output)) == ["small-640x480.jpg", "made.jpg", "contact-sheet.jpg", "index.json"])
        let (alone, startedAlone) = try thumbnails(fixture, [photo], output: fixture.folder.path("alone"))
        #expect(alone.status == 0, "\(alone.stderr)")
        #expect(!startedAlone.loadedModules && startedAlone.searchedDevNull, "\(alone.stdout)")
        #expect(startedAlone.messages.count == 1 && startedAlone.messages == started.messages,
                "without modules: \(startedAlone.messages); with: \(started.messages)")
    }
}

/// What libvips logged as it started (`VIPS_INFO`) in a run's `stdout`.
struct VipsStartLog {
    /// A launcher that keeps the test process's `VIPSHOME` from a run: one set by the person keeps
    /// libvips' modules.
    static let withoutVIPSHOME = ["/usr/bin/env", "-u", "VIPSHOME"]

    /// Whether it loaded its plugin modules.
    var loadedModules: Bool
    /// Whether it looked for them under /dev/null (where none can be).
    var searchedDevNull: Bool
    /// Where its messages are translated from, as it logged.
    var messages: [String]

    init(_ stdout: String) {
        let lines = stdout.split(separator: "\n")
        loadedModules = lines.contains { $0.contains("loading \"") && $0.hasSuffix(".so\"") }
        searchedDevNull = lines.contains { $0.hasSuffix("prefix = /dev/null") }
        messages = lines.compactMap { line in line.range(of: "messages of vips").map { String(line[$0.lowerBound...]) } }
    }
}
