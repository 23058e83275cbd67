import Archive
import EngineTestKit
import Foundation

/// Source files and zips for one test, in a fresh temporary folder.
struct ArchiveFixture {
    let directory = TemporaryDirectory()

    /// A path in the fixture's folder.
    func path(_ name: String) -> String { directory.path(name) }

    /// Writes a source file and returns its path.
    @discardableResult
    func file(_ name: String, _ contents: Data) throws -> String {
        let path = directory.path(name)
        try contents.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Writes a text source file and returns its path.
    @discardableResult
    func file(_ name: String, text: String) throws -> String {
        try file(name, Data(text.utf8))
    }

    /// Sets a file's modification and access times.
    func touch(_ path: String, secondsSince1970: TimeInterval) throws {
        let date = Date(timeIntervalSince1970: secondsSince1970)
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    /// The bytes of a file.
    func bytes(_ path: String) throws -> Data {
        try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Whether anything exists at a path.
    func exists(_ path: String) -> Bool {
        FileManager.default.fileExists(atPath: path)
    }

    /// Every entry of a zip with its whole contents, read through ``ZipReader/forEachEntry(of:_:)``.
    func contents(of zip: String) throws -> [(info: ZipEntryInfo, data: Data)] {
        var result: [(info: ZipEntryInfo, data: Data)] = []
        try ZipReader.forEachEntry(of: zip) { info, contents in
            var data = Data()
            try contents.readChunks { data.append(contentsOf: $0) }
            result.append((info, data))
        }
        return result
    }
}

/// Bytes that do not compress: a fixed pseudo-random sequence, the same on every run.
func incompressibleBytes(count: Int, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) -> Data {
    var state = seed
    var data = Data(count: count)
    data.withUnsafeMutableBytes { bytes in
        for index in bytes.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
    }
    return data
}
