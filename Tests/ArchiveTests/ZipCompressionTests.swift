import Archive
import Foundation
import Testing

@Suite("Stored and deflated entries")
struct ZipCompressionTests {
    private let text = String(repeating: "frame 0001 decoded, colour space bt709, no errors\n", count: 2_000)

    @Test("a compressible text entry makes a smaller zip when deflated")
    func deflatedIsSmaller() throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("log.txt", text: text)
        let stored = fixture.path("stored.zip")
        let deflated = fixture.path("deflated.zip")

        try ZipWriter.write([ZipEntry(name: "log.txt", source: source, compressed: false)], to: stored)
        try ZipWriter.write([ZipEntry(name: "log.txt", source: source, compressed: true)], to: deflated)

        let storedSize = try fixture.bytes(stored).count
        let deflatedSize = try fixture.bytes(deflated).count
        #expect(storedSize > text.utf8.count)
        #expect(deflatedSize < storedSize / 10)
        #expect(try fixture.contents(of: deflated).map(\.data) == [Data(text.utf8)])
    }

    @Test("each entry is stored or deflated as asked, and a stored entry's compressed size is its size")
    func methodPerEntry() throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("log.txt", text: text)
        let zip = fixture.path("mixed.zip")

        try ZipWriter.write([
            ZipEntry(name: "stored.txt", source: source, compressed: false),
            ZipEntry(name: "deflated.txt", source: source, compressed: true),
            ZipEntry(name: "stored-again.txt", source: source, compressed: false),
        ], to: zip)

        let entries = try IndependentZipReader.entries(of: zip)
        let size = Int64(text.utf8.count)
        #expect(entries.map(\.method) == [0, 8, 0])
        #expect(entries.map(\.size) == [size, size, size])
        #expect(entries[0].compressedSize == size)
        #expect(entries[1].compressedSize < size / 10)
        #expect(entries[2].compressedSize == size)
    }
}
