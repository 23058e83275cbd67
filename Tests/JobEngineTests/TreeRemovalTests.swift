import EngineTestKit
import Foundation
import Glibc
@testable import JobEngine
import Testing

/// ``DurableFiles/remove(_:)``, which removes a folder's entries as it reads them, checked against
/// what the file system holds afterwards (`lstat`, and Foundation's listing).
@Suite struct TreeRemovalTests {
    @Test func aTreeOfFoldersFilesAndLinksGoesWholeAndALinkedFolderOutsideItStays() throws {
        let folder = TemporaryDirectory()
        let outside = folder.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: outside.appendingPathComponent("kept"))
        let tree = folder.url.appendingPathComponent("work")
        let nested = tree.appendingPathComponent("lease.3/deeper")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        // More entries than one read of a folder returns, in the tree and below it.
        for index in 0..<1500 { try Data("\(index)".utf8).write(to: tree.appendingPathComponent("unit-\(index).txt")) }
        for index in 0..<20 { try Data().write(to: nested.appendingPathComponent("part-\(index)")) }
        try FileManager.default.createSymbolicLink(at: tree.appendingPathComponent("link"), withDestinationURL: outside)

        try DurableFiles.remove(tree)

        #expect(!DurableFiles.exists(tree))
        #expect(try FileManager.default.subpathsOfDirectory(atPath: folder.url.path).sorted() == ["outside", "outside/kept"],
                "the linked folder and its file are not followed")
    }

    @Test func aMissingPathIsFineAndAFileIsRemovedAlone() throws {
        let folder = TemporaryDirectory()
        try DurableFiles.remove(folder.url.appendingPathComponent("never-made"))
        let file = folder.url.appendingPathComponent("result.json")
        try Data("{}".utf8).write(to: file)
        try DurableFiles.remove(file)
        #expect(!DurableFiles.exists(file))
        #expect(DurableFiles.exists(folder.url))
    }
}
