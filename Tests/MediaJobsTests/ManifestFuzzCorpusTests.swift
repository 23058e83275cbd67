import EngineTestKit
import Foundation
@testable import MediaJobs
import Testing

/// Replays Tests/Corpus/fuzz/manifest/ — the seeds of `Scripts/fuzz` and every input that once
/// crashed the manifest reader — through what the fuzzer calls: each must give a manifest or a
/// ``ManifestError``, never a crash or another error.
@Suite struct ManifestFuzzCorpusTests {
    static let inputs: [URL] = {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Corpus/fuzz/manifest")
        return try! FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }()

    @Test func theCorpusHoldsSeedsAndCrashInputs() {
        #expect(Self.inputs.count >= 5)
        #expect(Self.inputs.contains { $0.lastPathComponent.hasPrefix("crash-") })
    }

    @Test(arguments: inputs)
    func eachInputIsReadOrRefusedWithAManifestError(_ input: URL) throws {
        let folder = TemporaryDirectory()
        do {
            _ = try ProjectLoader.decode(Data(contentsOf: input), file: "project.json", folder: folder.url)
        } catch let error as ManifestError {
            #expect(!error.problem.isEmpty)
        }
    }
}
