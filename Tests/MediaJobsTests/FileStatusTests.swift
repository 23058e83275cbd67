import EngineTestKit
import Foundation
import Glibc
@testable import PhotoJobs
import Testing

/// The work key of a job holds its inputs' sizes and modification times: read with one `lstat`
/// instead of FileManager, they must be the very values FileManager gives, or the same work
/// submitted by two versions of the program would get two keys.
@Suite struct FileStatusTests {
    private let folder = TemporaryDirectory()

    /// Files with modification times at every 7,919th nanosecond of a second (whole seconds among
    /// them), a symbolic link and a folder.
    private func paths() throws -> [String] {
        var paths: [String] = []
        for index in 0..<400 {
            let path = folder.path("file-\(index)")
            try Data(repeating: UInt8(index % 256), count: index).write(to: URL(fileURLWithPath: path))
            var times = [timespec(tv_sec: 1_796_238_459 + index, tv_nsec: index * 7_919 * 311 % 1_000_000_000),
                         timespec(tv_sec: 1_796_238_459 + index, tv_nsec: index * 7_919 * 311 % 1_000_000_000)]
            #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
            paths.append(path)
        }
        let link = folder.path("link")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: paths[399])
        return paths + [link, folder.url.path]
    }

    @Test func sizesAndModificationTimesAreFileManagersToTheLastBit() throws {
        for path in try paths() {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let status = try #require(FileStatus(path: path))
            #expect(status.size == (attributes[.size] as? NSNumber)?.int64Value, "\(path)")
            let modified = try #require((attributes[.modificationDate] as? Date)?.timeIntervalSince1970)
            #expect(status.modified.bitPattern == modified.bitPattern, "\(path): \(status.modified) against \(modified)")
        }
    }

    @Test func aMissingFileHasNoStatus() {
        #expect(FileStatus(path: folder.path("missing")) == nil)
    }
}
