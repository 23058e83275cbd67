import Archive
import Foundation
import Testing

/// Bad input other than hostile media files (those are in ``HostileFileTests``): a destination that
/// exists, a manifest that climbs out, a pixel limit.
@Suite struct BadInputTests {
    @Test func anExistingDestinationIsNeverOverwrittenUnlessAsked() throws {
        let fixture = CLIFixture()
        let output = fixture.folder.path("sample.zip")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: output))
        let refused = try fixture.run("export", [sampleProject.path, "--output", output])
        #expect(refused.status == 65)
        #expect(refused.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        #expect(try fixture.run("export", [sampleProject.path, "--output", output, "--overwrite"]).status == 0)
        #expect(try ZipReader.entries(of: output).count == 7)
    }

    /// Manifests that are wrong or built to hurt, end to end: exit 65, the error names the file
    /// and the field, and nothing is written anywhere. Field-by-field cases are in MediaJobsTests.
    @Test(arguments: HostileManifest.allCases)
    func aHostileManifestExits65NamingTheFieldAndWritesNothing(_ manifest: HostileManifest) throws {
        let fixture = CLIFixture()
        let project = fixture.folder.url.appendingPathComponent("p")
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data(manifest.text.utf8).write(to: project.appendingPathComponent("project.json"))
        // No --output: the package would go where the manifest's name says, in the current folder.
        let result = try CLIProcess.run(["export", project.path, "--state-dir", fixture.stateDir], workingDirectory: fixture.folder.url)
        #expect(result.status == 65)
        #expect(result.stderr.hasPrefix("Error: \(project.path)/project.json: \(manifest.field)"), "\(result.stderr.prefix(300))")
        #expect(result.stderr.contains(manifest.problem), "\(result.stderr.prefix(300))")
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path) == ["p"], "nothing written")
    }
}

/// A `project.json` for ``BadInputTests``, with the field and the words its error must show.
enum HostileManifest: String, CaseIterable, CustomTestStringConvertible {
    case climbsOut, notJSON, nestedTenThousandDeep, fiftyMegabytes, nameLeadsOut

    var testDescription: String { rawValue }

    var text: String {
        switch self {
        case .climbsOut: #"{"version": 1, "name": "x", "assets": [{"path": "../../etc/passwd"}]}"#
        case .notJSON: "{ not json"
        case .nestedTenThousandDeep:
            #"{"version": 1, "name": "x", "assets": "# + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        case .fiftyMegabytes:
            #"{"version": 1, "name": "x", "assets": [{"path": "a.jpg", "output": ""# + String(repeating: "a", count: 50 << 20) + #""}]}"#
        case .nameLeadsOut: #"{"version": 1, "name": "../escaped", "assets": [{"path": "a.jpg"}]}"#
        }
    }

    /// The field the error names, with its `: ` (nothing for the whole file).
    var field: String {
        switch self {
        case .climbsOut: "assets[0].path: "
        case .notJSON, .nestedTenThousandDeep, .fiftyMegabytes: ""
        case .nameLeadsOut: "name: "
        }
    }

    var problem: String {
        switch self {
        case .climbsOut: "climbs out"
        case .notJSON, .nestedTenThousandDeep: "not valid JSON"
        case .fiftyMegabytes: "at most 8 MB"
        case .nameLeadsOut: "names the package"
        }
    }
}

@Suite struct PixelLimitTests {
    @Test func maxPixelsRefusesLargerPhotosByName() throws {
        let fixture = CLIFixture()
        let photo = sampleProject.appendingPathComponent("landscape-3000x2000.jpg").path
        let small = sampleProject.appendingPathComponent("small-640x480.jpg").path
        let result = try fixture.run("thumbnail", [photo, small, "--output", fixture.folder.path("t"), "--max-pixels", "1000000"])
        #expect(result.status == 65)
        #expect(result.stderr.contains("landscape-3000x2000.jpg"))
        #expect(!result.stderr.contains("small-640x480.jpg"))
    }
}
