import Foundation
import Testing

/// The same faults made by the kernel's side of the call: `strace -e inject` fails every `fsync`
/// or every rename the real process makes, whoever makes it (Foundation, the engine), so what is
/// tested is the code's handling of the system call's own return value.
@Suite struct SyscallFaultTests {
    /// The system calls to fail, the error, and the failure category the job must end with.
    static let faults: [(calls: String, error: String, category: String)] = [
        ("fsync", "EIO", "io"),
        ("rename,renameat,renameat2", "ENOSPC", "no_space"),
    ]

    @Test(arguments: faults)
    func aFailingSystemCallFailsTheJobWithoutCountingItsChunkAndResumeCompletes(calls: String, error: String,
                                                                                  category: String) throws {
        let fixture = CLIFixture()
        let strace = ["/usr/bin/strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(calls)", "-e", "inject=\(calls):error=\(error)"]
        let failed = try fixture.run("selftest", fixture.selftest(units: 3, unitMilliseconds: 1), launcher: strace)
        #expect(failed.status == 1, "\(failed.stderr)")
        let id = try #require(failed.events.first?[string: "job_id"])
        let job = try StoredJob(fixture, id: id)
        #expect(try fixture.status(id)[string: "failure"] == category)
        #expect(try job.doneChunks.isEmpty, "the first unit's output never became durable, so it is not done")
        #expect(try job.uncommittedFiles.isEmpty)

        let resumed = try fixture.run("resume", [id])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let result = try fixture.result()
        #expect(result.committed == [0, 1, 2])
        #expect(result.executions["0"] == 2, "unit 0 was redone from its source")
    }

    /// `renameat2(RENAME_NOREPLACE)` refused with `EINVAL`, as NFS refuses it: the result is published
    /// by `link` and `unlink` (a file) or by `rename` (a folder), and the trace shows that path taken.
    @Test(arguments: ["selftest", "thumbnail"])
    func whereRenameWithoutReplacingIsRefusedTheResultIsPublishedAnotherWay(_ command: String) throws {
        let fixture = CLIFixture()
        let trace = fixture.folder.path("trace.txt")
        let strace = ["/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=renameat2,rename,link,unlink",
                      "-e", "inject=renameat2:error=EINVAL"]
        let output = fixture.folder.path("thumbs")
        let arguments = command == "selftest"
            ? fixture.selftest(units: 3, unitMilliseconds: 1)
            : [sampleProject.appendingPathComponent("small-640x480.jpg").path, "--output", output]
        let run = try fixture.run(command, arguments, launcher: strace)
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(calls.contains { $0.contains("RENAME_NOREPLACE") && $0.contains("EINVAL") && $0.contains("INJECTED") })
        if command == "selftest" {
            #expect(try fixture.result().committed == [0, 1, 2])
            #expect(calls.contains { $0.contains("link(") && $0.contains("result.json\"") && $0.hasSuffix("= 0") })
        } else {
            #expect(calls.contains { $0.contains("rename(") && $0.contains("/thumbs\"") && $0.hasSuffix("= 0") })
            let files = try FileManager.default.contentsOfDirectory(atPath: output)
            #expect(files.contains("index.json"), "\(files)")
        }
    }

    /// `renameat2(RENAME_EXCHANGE)` refused with `EINVAL` too: `--overwrite` of an existing folder
    /// replaces it by three renames, and nothing of the old folder or the job's workspace is left.
    @Test func whereRenameExchangeIsRefusedOverwriteStillReplacesTheFolder() throws {
        let fixture = CLIFixture()
        let trace = fixture.folder.path("trace.txt")
        let output = fixture.folder.path("thumbs")
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try Data("old".utf8).write(to: URL(fileURLWithPath: "\(output)/stale.txt"))
        let strace = ["/usr/bin/strace", "-f", "-qq", "-o", trace, "-e", "trace=renameat2,rename",
                      "-e", "inject=renameat2:error=EINVAL"]
        let run = try fixture.run("thumbnail", [sampleProject.appendingPathComponent("small-640x480.jpg").path,
                                                "--output", output, "--overwrite"], launcher: strace)
        #expect(run.status == 0, "\(run.stderr)")
        let calls = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        #expect(calls.contains { $0.contains("RENAME_EXCHANGE") && $0.contains("EINVAL") && $0.contains("INJECTED") })
        let files = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(files.contains("index.json") && !files.contains("stale.txt"), "\(files)")
        let beside = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.url.path)
        #expect(beside.allSatisfy { !$0.contains("mediajob") && !$0.contains("replaced") }, "\(beside)")
    }
}
