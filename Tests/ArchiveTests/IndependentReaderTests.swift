import Archive
import Foundation
import Testing

@Suite("Zips read by an independent reader (Python's zipfile)")
struct IndependentReaderTests {
    @Test("zipfile tests the zip clean and lists every entry")
    func zipfileAcceptsTheZip() throws {
        let fixture = ArchiveFixture()
        let zip = fixture.path("out.zip")
        try ZipWriter.write([
            ZipEntry(name: "media/clip.mp4", source: try fixture.file("clip", incompressibleBytes(count: 1_500_000)),
                     compressed: false),
            ZipEntry(name: "media/clip.json", source: try fixture.file("json", text: #"{"ok": true}"#), compressed: true),
        ], to: zip)

        let test = try IndependentZipReader.module("-t", zip)
        #expect(test.status == 0, "\(test.output)")
        let list = try IndependentZipReader.module("-l", zip)
        #expect(list.status == 0)
        #expect(list.output.contains("media/clip.mp4"))
        #expect(list.output.contains("media/clip.json"))
    }

    @Test("zipfile reads the same names, sizes and contents, with non-ASCII names flagged as UTF-8")
    func zipfileReadsTheSameEntries() throws {
        let fixture = ArchiveFixture()
        let zip = fixture.path("out.zip")
        let names = ["plain.txt", "dossier/été.txt", "日本/ファイル.bin"]
        let data = [Data("plain".utf8), Data(String(repeating: "été ", count: 500).utf8), incompressibleBytes(count: 9_999)]
        try ZipWriter.write(names.indices.map { index in
            ZipEntry(name: names[index], source: try fixture.file("s\(index)", data[index]), compressed: index != 2)
        }, to: zip)

        let entries = try IndependentZipReader.entries(of: zip)
        #expect(entries.map(\.name) == names)
        #expect(entries.map(\.size) == data.map { Int64($0.count) })
        #expect(entries.map(\.crcMatches) == [true, true, true])
        #expect(entries.map(\.utf8Flag) == [false, true, true])
    }
}
