import Foundation
import MediaTestKit
import Testing

/// `mediajob` links no media library, so that the commands on stored jobs start quickly, and hands
/// the media commands to `mediajob-media` beside it in the same process (issue 15).
@Suite struct MediaProgramTests {
    private var mediaProgram: URL { CLIProcess.binary.deletingLastPathComponent().appendingPathComponent("mediajob-media") }

    /// The shared libraries `binary` names (its DT_NEEDED entries), as `readelf` reads them.
    private func needed(_ binary: URL) throws -> [String] {
        try MediaFixtures.run("/usr/bin/readelf", ["-d", binary.path]).output.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    @Test func mediajobLinksNoMediaLibraryAndMediajobMediaDoes() throws {
        let media = ["libvips", "libavcodec", "libavformat", "libavfilter", "libswscale", "libarchive", "libglib", "libgobject"]
        let light = try needed(CLIProcess.binary)
        #expect(light.contains { $0.hasPrefix("libsqlite3") }, "\(light)")
        #expect(light.filter { name in media.contains { name.hasPrefix($0) } } == [])
        let full = try needed(mediaProgram)
        #expect(full.contains { $0.hasPrefix("libvips") } && full.contains { $0.hasPrefix("libavcodec") }, "\(full)")
    }

    /// Package.swift names libraries on mediajob-media's link line, after libc, so that the dynamic
    /// loader meets them early in its lookups (`lookupHeavyLibraries`). Each must be one that the
    /// libraries the program needs load anyway: naming any other would load it, run its constructor
    /// and put its symbols in every lookup's way.
    @Test func theLibrariesNamedForTheLookupOrderAreOnesMediajobMediaLoadsAnyway() throws {
        let own = try needed(mediaProgram)
        let libc = try #require(own.firstIndex(of: "libc.so.6"), "\(own)")
        let named = own[(libc + 1)...].filter { !$0.hasPrefix("ld-linux") }
        var paths: [String: String] = [:]  // every library it loads, by soname, where ldd finds it
        for line in try MediaFixtures.run("/usr/bin/ldd", [mediaProgram.path]).output.split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count >= 3, words[1] == "=>" { paths[words[0].trimmingCharacters(in: .whitespaces)] = String(words[2]) }
        }
        var neededBy: [String: [String]] = [:]  // by path; readelf heads each file's section with "File: path"
        var file = ""
        for line in try MediaFixtures.run("/usr/bin/readelf", ["-d"] + paths.values.sorted()).output.split(separator: "\n") {
            if line.hasPrefix("File: ") {
                file = String(line.dropFirst("File: ".count))
            } else if line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") {
                neededBy[file, default: []].append(String(line[line.index(after: open)..<close]))
            }
        }
        var loaded = Set(own[...libc])
        var queue = Array(own[...libc])
        while let name = queue.popLast() {
            for dependency in neededBy[paths[name] ?? ""] ?? [] where loaded.insert(dependency).inserted {
                queue.append(dependency)
            }
        }
        #expect(named.filter { !loaded.contains($0) } == [], "loaded by nothing else; Package.swift names \(named)")
    }

    @Test func aMediaCommandBecomesMediajobMediaInTheSameProcess() throws {
        let fixture = CLIFixture()
        let trace = fixture.folder.path("exec.trace")
        let run = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1), launcher: [
            "/usr/bin/strace", "-f", "-qq", "-s", "4096", "-o", trace, "-e", "trace=execve,fork,vfork,clone,clone3",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try fixture.result().committed.count == 2)
        let lines = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        let handOver = lines.firstIndex { $0.contains("execve(\"\(mediaProgram.path)\", [\"\(mediaProgram.path)\", \"selftest\", \"--units\", \"2\"") }
        #expect(handOver != nil, "no execve of mediajob-media: \(lines)")
        // Before it, mediajob starts threads only, no other process: the exec (from any of its
        // threads) keeps the process id, so whoever waits on or signals mediajob reaches the work.
        // A call strace shows split ("<unfinished ...>", then "<... clone3 resumed>") carries its
        // flags on the first line only, so the second is left out.
        let spawned = lines[..<(handOver ?? lines.endIndex)].filter {
            !$0.contains(" resumed>") && (($0.contains("clone") && !$0.contains("CLONE_THREAD")) || $0.contains("fork("))
        }
        #expect(spawned == [], "\(spawned)")
    }

    @Test func withoutMediajobMediaAMediaCommandSaysWhatToInstall() throws {
        let fixture = CLIFixture()
        let alone = fixture.folder.path("alone")
        try FileManager.default.createDirectory(atPath: alone, withIntermediateDirectories: true)
        // A copy of mediajob in a folder of its own, run there.
        let copy = ["/bin/sh", "-c", "cp \"$0\" \"\(alone)/mediajob\" && exec \"\(alone)/mediajob\" \"$@\""]
        let run = try fixture.run("selftest", fixture.selftest(units: 2, unitMilliseconds: 1), launcher: copy)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("Error: this command needs \(alone)/mediajob-media, which could not be started"), "\(run.stderr)")
        #expect(run.stderr.contains("install mediajob-media in the same folder as mediajob"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: fixture.folder.path("result.json")))
        let jobs = try fixture.run("jobs", [], launcher: copy)
        #expect(jobs.status == 0, "the commands on stored jobs run without it: \(jobs.stderr)")
    }
}
