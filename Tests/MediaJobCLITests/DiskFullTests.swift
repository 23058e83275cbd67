import Foundation
import Testing

/// An export into a real tmpfs too small for it. The mini project's chunks take about 350 KiB
/// and its finalisation about 530 KiB more (the joined clip, then the archive), so 200 KiB fills
/// while chunks are encoded and 600 KiB while the package is built.
@Suite struct DiskFullTests {
    static let sizes: [(stage: String, kibibytes: Int)] = [("encoding", 200), ("finalisation", 600)]

    @Test(arguments: sizes)
    func anExportThatFillsTheDiskFailsNamingTheDestinationAndResumesOnceSpaceIsFreed(stage: String, kibibytes: Int) throws {
        let expected = try MiniProject.referenceArchive()
        let fixture = CLIFixture()
        let disk = try ScratchFileSystem(kibibytes: kibibytes, at: fixture.folder.url.appendingPathComponent("disk"))
        defer { disk.unmount() }
        let output = disk.path("mini.zip")
        let failed = try fixture.run("export", [try MiniProject.make(in: fixture.folder), "--output", output, "--json"])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("Error: no space left on the device holding \(output); free some space there, then resume"),
                "\(failed.stderr)")
        let id = try #require(failed.events.first?[string: "job_id"])
        let job = try StoredJob(fixture, id: id)
        let status = try fixture.status(id)
        #expect(status[string: "state"] == "failed")
        #expect(status[string: "failure"] == "no_space")
        let done = try job.doneChunks.count, total = try #require(status[number: "units_total"].map(Int.init))
        #expect(stage == "encoding" ? done < total : done == total, "the disk filled during \(stage)")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing partial at the destination")
        #expect(try job.uncommittedFiles.isEmpty, "no half-written file is left behind")

        try disk.resize(kibibytes: 4096)
        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output)) == expected)
        #expect(try job.checkpointedChunks.sorted() == Array(0..<total))
    }
}
