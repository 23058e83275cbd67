import Archive
import Foundation
import Synchronization
import Testing

/// A stop check that says "stop" on its n-th call and counts its calls.
final class StopOnCall: Sendable {
    private let calls = Mutex(0)
    private let stopAt: Int

    init(_ stopAt: Int) { self.stopAt = stopAt }

    var count: Int { calls.withLock { $0 } }

    func callAsFunction() -> Bool {
        calls.withLock { count in
            count += 1
            return count >= stopAt
        }
    }
}

@Suite("Zip writes that fail or stop")
struct ZipWriterFailureTests {
    @Test("a stop requested between chunks abandons the write and removes the partial zip")
    func stopBetweenChunks() throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("big.bin", incompressibleBytes(count: 5_000_000))
        let zip = fixture.path("out.zip")
        let stop = StopOnCall(3)

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([ZipEntry(name: "big.bin", source: source, compressed: false)], to: zip,
                                shouldStop: { stop() })
        }
        #expect(error?.kind == .stopped)
        #expect(error?.entry == "big.bin")
        #expect(stop.count == 3)
        #expect(!fixture.exists(zip))
    }

    @Test("a stop check that never fires is consulted before every chunk")
    func stopCheckIsConsultedPerChunk() throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("big.bin", incompressibleBytes(count: 5_000_000))
        let stop = StopOnCall(Int.max)

        try ZipWriter.write([ZipEntry(name: "big.bin", source: source, compressed: false)],
                            to: fixture.path("out.zip"), shouldStop: { stop() })

        // One check before the entry, one before each of its five 1 MiB chunks.
        #expect(stop.count == 6)
    }

    @Test("a full disk fails with category noSpace", .enabled(if: FileManager.default.fileExists(atPath: "/dev/full")))
    func fullDisk() throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("big.bin", incompressibleBytes(count: 200_000))

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([ZipEntry(name: "big.bin", source: source, compressed: false)], to: "/dev/full")
        }
        #expect(error?.kind == .writeFailed)
        #expect(error?.category == .noSpace)
        #expect(FileManager.default.fileExists(atPath: "/dev/full"))
    }

    @Test("a missing source fails with category io naming the source and leaves no zip")
    func missingSource() throws {
        let fixture = ArchiveFixture()
        let present = try fixture.file("present", text: "here")
        let missing = fixture.path("missing")
        let zip = fixture.path("out.zip")

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([
                ZipEntry(name: "present", source: present, compressed: true),
                ZipEntry(name: "missing", source: missing, compressed: true),
            ], to: zip)
        }
        #expect(error?.kind == .sourceUnreadable)
        #expect(error?.category == .io)
        #expect(error?.code == ENOENT)
        #expect(error?.message.contains(missing) == true)
        #expect(!fixture.exists(zip))
    }

    @Test("a folder as a source fails with category invalidInput")
    func folderSource() throws {
        let fixture = ArchiveFixture()
        let folder = fixture.path("folder")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([ZipEntry(name: "folder", source: folder, compressed: true)], to: fixture.path("out.zip"))
        }
        #expect(error?.kind == .unsupportedSource)
        #expect(error?.category == .invalidInput)
    }

    @Test("an output in a missing folder fails with category io and libarchive's message")
    func unwritableOutput() throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("a", text: "a")
        let zip = fixture.path("no/such/folder/out.zip")

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([ZipEntry(name: "a", source: source, compressed: true)], to: zip)
        }
        #expect(error?.kind == .writeFailed)
        #expect(error?.category == .io)
        #expect(error?.code == ENOENT)
        #expect(error?.detail.isEmpty == false)
    }
}
