import Archive
import Foundation
import Testing

@Suite("Writing then reading a zip")
struct ZipRoundTripTests {
    @Test("names, order, sizes and contents come back as written")
    func roundTrip() throws {
        let fixture = ArchiveFixture()
        let sources: [(name: String, data: Data, compressed: Bool)] = [
            ("report.json", Data(#"{"frames": 120, "codec": "h264"}"#.utf8), true),
            ("thumbnails/0002.jpg", incompressibleBytes(count: 70_000), false),
            ("thumbnails/0001.jpg", incompressibleBytes(count: 3, seed: 7), false),
            ("empty.txt", Data(), true),
            ("notes/été/naïve résumé.txt", Data("accents survive\n".utf8), true),
        ]
        let entries = try sources.enumerated().map { index, source in
            ZipEntry(name: source.name, source: try fixture.file("source\(index)", source.data),
                     compressed: source.compressed)
        }
        let zip = fixture.path("out.zip")

        try ZipWriter.write(entries, to: zip)

        let expected = sources.map { ZipEntryInfo(name: $0.name, size: Int64($0.data.count)) }
        #expect(try ZipReader.entries(of: zip) == expected)
        let read = try fixture.contents(of: zip)
        #expect(read.map(\.info) == expected)
        #expect(read.map(\.data) == sources.map(\.data))
    }

    @Test("a 5 MB entry streams through in chunks of at most 1 MiB")
    func largeEntryStreams() throws {
        let fixture = ArchiveFixture()
        let data = incompressibleBytes(count: 5_000_000)
        let source = try fixture.file("big.bin", data)
        let zip = fixture.path("big.zip")

        try ZipWriter.write([ZipEntry(name: "big.bin", source: source, compressed: false)], to: zip)

        var chunkSizes: [Int] = []
        var read = Data()
        try ZipReader.forEachEntry(of: zip) { info, contents in
            #expect(info == ZipEntryInfo(name: "big.bin", size: 5_000_000))
            try contents.readChunks { chunk in
                chunkSizes.append(chunk.count)
                read.append(contentsOf: chunk)
            }
        }
        #expect(read == data)
        #expect(chunkSizes.count > 1)
        #expect(chunkSizes.allSatisfy { $0 <= 1 << 20 })
    }

    @Test("entries left unread are skipped and later entries still read")
    func unreadEntriesAreSkipped() throws {
        let fixture = ArchiveFixture()
        let entries = [
            ZipEntry(name: "a", source: try fixture.file("a", incompressibleBytes(count: 2_000_000)), compressed: true),
            ZipEntry(name: "b", source: try fixture.file("b", text: "second"), compressed: true),
        ]
        let zip = fixture.path("out.zip")
        try ZipWriter.write(entries, to: zip)

        var last = Data()
        try ZipReader.forEachEntry(of: zip) { info, contents in
            guard info.name == "b" else { return }
            try contents.readChunks { last.append(contentsOf: $0) }
        }
        #expect(String(decoding: last, as: UTF8.self) == "second")
    }

    @Test("an empty list of entries makes an empty zip")
    func emptyZip() throws {
        let fixture = ArchiveFixture()
        let zip = fixture.path("empty.zip")
        try ZipWriter.write([], to: zip)
        #expect(try fixture.bytes(zip).count == 22)
        #expect(try ZipReader.entries(of: zip).isEmpty)
        var visited = 0
        try ZipReader.forEachEntry(of: zip) { _, _ in visited += 1 }
        #expect(visited == 0)
        #expect(try IndependentZipReader.module("-t", zip).status == 0)
    }
}
