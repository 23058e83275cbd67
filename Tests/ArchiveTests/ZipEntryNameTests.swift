import Archive
import Foundation
import Testing

@Suite("Entry names")
struct ZipEntryNameTests {
    @Test("an unsafe name is refused before any zip is written", arguments: [
        "../x", "/abs", "a\u{1}b", "a\\b", "", "a//b", "dir/", "./x", "a/../b", "tab\there", "del\u{7F}",
    ])
    func unsafeNameIsRefused(name: String) throws {
        let fixture = ArchiveFixture()
        let source = try fixture.file("source", text: "x")
        let zip = fixture.path("out.zip")

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([ZipEntry(name: name, source: source, compressed: true)], to: zip)
        }
        #expect(error?.kind == .invalidEntryName)
        #expect(error?.category == .invalidInput)
        #expect(error?.entry == name)
        #expect(!fixture.exists(zip))
        #expect(throws: ArchiveError.self) { try ZipEntry.validate(name: name) }
    }

    @Test("safe names pass validation", arguments: ["a", "a/b/c.jpg", "..hidden", "a..b/c", "é/ü.txt", "with space"])
    func safeNamePasses(name: String) throws {
        try ZipEntry.validate(name: name)
    }

    @Test("a name used twice is refused before any zip is written")
    func duplicateNameIsRefused() throws {
        let fixture = ArchiveFixture()
        let first = try fixture.file("first", text: "1")
        let second = try fixture.file("second", text: "2")
        let zip = fixture.path("out.zip")

        let error = #expect(throws: ArchiveError.self) {
            try ZipWriter.write([
                ZipEntry(name: "same/name.txt", source: first, compressed: true),
                ZipEntry(name: "other.txt", source: first, compressed: true),
                ZipEntry(name: "same/name.txt", source: second, compressed: false),
            ], to: zip)
        }
        #expect(error?.kind == .duplicateEntry)
        #expect(error?.category == .invalidInput)
        #expect(error?.message.contains("same/name.txt") == true)
        #expect(!fixture.exists(zip))
    }

    @Test("the refusal message shows a control character escaped, not raw")
    func messageEscapesControlCharacters() throws {
        let error = #expect(throws: ArchiveError.self) { try ZipEntry.validate(name: "a\u{1}b") }
        #expect(error?.message.contains("\u{1}") == false)
        #expect(error?.message.contains("control character") == true)
    }
}
