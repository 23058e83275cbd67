import Archive
import Foundation
import Testing

@Suite("Reproducible zips")
struct ZipReproducibilityTests {
    private func entries(in fixture: ArchiveFixture) throws -> [ZipEntry] {
        [
            ZipEntry(name: "clip/poster.jpg", source: try fixture.file("poster", incompressibleBytes(count: 40_000)),
                     compressed: false),
            ZipEntry(name: "clip/meta.json", source: try fixture.file("meta", text: #"{"duration": 12.5}"#),
                     compressed: true),
        ]
    }

    @Test("writing the same entries twice gives byte-identical zips")
    func sameBytesTwice() throws {
        let fixture = ArchiveFixture()
        let entries = try entries(in: fixture)

        try ZipWriter.write(entries, to: fixture.path("first.zip"))
        try ZipWriter.write(entries, to: fixture.path("second.zip"))

        #expect(try fixture.bytes(fixture.path("first.zip")) == fixture.bytes(fixture.path("second.zip")))
    }

    @Test("sources with different modification times give byte-identical zips")
    func sourceTimesDoNotLeak() throws {
        let fixture = ArchiveFixture()
        let entries = try entries(in: fixture)

        for entry in entries { try fixture.touch(entry.source, secondsSince1970: 1_000_000_000) }
        try ZipWriter.write(entries, to: fixture.path("old.zip"))
        for entry in entries { try fixture.touch(entry.source, secondsSince1970: 1_700_000_000) }
        try ZipWriter.write(entries, to: fixture.path("new.zip"))

        #expect(try fixture.bytes(fixture.path("old.zip")) == fixture.bytes(fixture.path("new.zip")))
    }

    @Test("every entry carries the fixed time 2000-01-01T00:00:00Z, mode 0644 and owner 0")
    func fixedMetadata() throws {
        let fixture = ArchiveFixture()
        let zip = fixture.path("out.zip")
        try ZipWriter.write(try entries(in: fixture), to: zip)

        let read = try IndependentZipReader.entries(of: zip)
        #expect(read.count == 2)
        for entry in read {
            #expect(entry.extendedModificationTime == 946_684_800)
            #expect(entry.mode == 0o100644)
            #expect(entry.uid == 0)
            #expect(entry.gid == 0)
        }
    }
}
