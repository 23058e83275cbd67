import EngineTestKit
import FFmpeg
import Foundation
import JobEngine
import MediaInputLimits
@testable import MediaJobs
@testable import PhotoJobs
import Testing
import Vips

/// The work key of an export is its kind's notion of identity: inputs as they are, settings,
/// destination; not the text of the spec nor anything about the machine.
@Suite struct WorkIdentityTests {
    private let folder = TemporaryDirectory()

    private func write(_ manifest: String) throws -> ExportJob.Spec {
        let project = folder.url.appendingPathComponent("project")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        let photo = project.appendingPathComponent("a.jpg")
        if !FileManager.default.fileExists(atPath: photo.path) { try Data("not really a photo".utf8).write(to: photo) }
        try Data(manifest.utf8).write(to: project.appendingPathComponent("project.json"))
        return ExportJob.Spec(project: project.path, manifest: try ProjectLoader.load(project),
                              settings: BatchSettings(output: folder.path("out.zip")))
    }

    private func key(_ spec: ExportJob.Spec) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(ExportJob().workIdentity(of: spec)), as: UTF8.self)
    }

    @Test func reorderedManifestAndHowTheWorkIsDoneLeaveTheKeyAlone() throws {
        let first = try write(#"{"version": 1, "name": "Trip", "assets": [{"path": "a.jpg", "edits": {"rotate": 90}}], "export": {"image": {"quality": 70}}}"#)
        let firstKey = try key(first)
        var second = try write(#"{"export": {"image": {"quality": 70}}, "assets": [{"edits": {"rotate": 90}, "path": "a.jpg"}], "name": "Trip", "version": 1}"#)
        second.settings.overwrite = true
        second.settings.gpu = .off
        second.settings.imageLimits = ImageLimits(maxPixels: 1_000)
        second.settings.mediaLimits = MediaLimits(maxPixels: 1_000)
        #expect(try key(second) == firstKey)
        #expect(firstKey.contains("a.jpg"), "the input is named: \(firstKey)")
    }

    @Test func touchingAnInputChangingASettingOrTheDestinationMakesItOtherWork() throws {
        let spec = try write(#"{"version": 1, "name": "Trip", "assets": [{"path": "a.jpg"}]}"#)
        let original = try key(spec)

        var otherSetting = spec
        otherSetting.manifest.export.image.quality = 50
        #expect(try key(otherSetting) != original)
        var otherDestination = spec
        otherDestination.settings.output = folder.path("elsewhere.zip")
        #expect(try key(otherDestination) != original)
        var skipping = spec
        skipping.settings.skipBad = true
        #expect(try key(skipping) != original)

        let input = URL(fileURLWithPath: spec.project).appendingPathComponent("a.jpg").path
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: input)
        #expect(try key(spec) != original, "a touched input is new work")
    }
}
