import Foundation
import MediaTestKit
import Testing

/// `mediajob completion` (issue 14): the bash script, sourced by bash itself, completes commands,
/// options and job ids.
@Suite struct CompletionTests {
    /// What bash's completion offers for `words` (the last one being completed), with the
    /// script sourced and the built binary first on PATH.
    private func offered(_ words: [String], stateDir: String) throws -> [String] {
        let script = try CLIProcess.run(["completion", "bash"])
        #expect(script.status == 0)
        let file = URL(fileURLWithPath: stateDir).deletingLastPathComponent().appendingPathComponent("completion.bash")
        try Data(script.stdout.utf8).write(to: file)
        let quoted = words.map { "'\($0)'" }.joined(separator: " ")
        let program = "source '\(file.path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _mediajob; printf '%s\\n' \"${COMPREPLY[@]}\""
        let path = CLIProcess.binary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        let result = try MediaFixtures.run("/usr/bin/env", ["PATH=\(path)", "MEDIAJOB_STATE_DIR=\(stateDir)", "/usr/bin/bash", "-c", program])
        return result.output.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndJobIDs() throws {
        let fixture = CLIFixture()
        let done = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1))
        let id = try #require(done.events.first?[string: "job_id"])
        #expect(try offered(["mediajob", "exp"], stateDir: fixture.stateDir) == ["export"])
        #expect(try offered(["mediajob", "comp"], stateDir: fixture.stateDir) == ["compress", "completion"])
        #expect(try offered(["mediajob", "export", "--o"], stateDir: fixture.stateDir) == ["--output", "--overwrite"])
        #expect(try offered(["mediajob", "status", ""], stateDir: fixture.stateDir) == [String(id.prefix(8))])
        #expect(try offered(["mediajob", "completion", "f"], stateDir: fixture.stateDir) == ["fish"])
    }

    @Test func everyShellGetsAScriptAndAnotherIsAUsageError() throws {
        let zsh = try CLIProcess.run(["completion", "zsh"])
        #expect(zsh.status == 0 && zsh.stdout.hasPrefix("#compdef mediajob\n"))
        let fish = try CLIProcess.run(["completion", "fish"])
        #expect(fish.status == 0 && fish.stdout.contains("complete -c mediajob -n __fish_use_subcommand -a export -d "))
        #expect(fish.stdout.contains("complete -c mediajob -n '__fish_seen_subcommand_from export' -l output -r -d "))
        let other = try CLIProcess.run(["completion", "fihs"])
        #expect(other.status == 64)
        #expect(other.stderr.hasPrefix("Error: the shell must be bash, zsh or fish, got 'fihs'; did you mean 'fish'?\n"), "\(other.stderr)")
    }
}
