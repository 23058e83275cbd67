import Archive
import Foundation
import Testing

@Suite("Reading damaged zips")
struct ZipReaderFailureTests {
    /// A zip of two stored entries, and its bytes.
    private func writeZip(in fixture: ArchiveFixture) throws -> (path: String, bytes: Data) {
        let zip = fixture.path("good.zip")
        try ZipWriter.write([
            ZipEntry(name: "one.bin", source: try fixture.file("one", incompressibleBytes(count: 50_000)), compressed: false),
            ZipEntry(name: "two.txt", source: try fixture.file("two", text: "second entry"), compressed: true),
        ], to: zip)
        return (zip, try fixture.bytes(zip))
    }

    @Test("a truncated zip fails with category invalidInput naming the file")
    func truncated() throws {
        let fixture = ArchiveFixture()
        let good = try writeZip(in: fixture)
        let truncated = try fixture.file("truncated.zip", good.bytes.prefix(good.bytes.count / 2))

        let listing = #expect(throws: ArchiveError.self) { try ZipReader.entries(of: truncated) }
        #expect(listing?.kind == .readFailed)
        #expect(listing?.category == .invalidInput)
        #expect(listing?.message.contains(truncated) == true)

        let reading = #expect(throws: ArchiveError.self) { try fixture.contents(of: truncated) }
        #expect(reading?.category == .invalidInput)
    }

    @Test("a zip missing only its last bytes fails too")
    func lastBytesMissing() throws {
        let fixture = ArchiveFixture()
        let good = try writeZip(in: fixture)
        let truncated = try fixture.file("truncated.zip", good.bytes.dropLast(1))

        let error = #expect(throws: ArchiveError.self) { try ZipReader.entries(of: truncated) }
        #expect(error?.category == .invalidInput)
    }

    @Test("a damaged byte inside an entry's contents fails the read with category invalidInput")
    func damagedContents() throws {
        let fixture = ArchiveFixture()
        var bytes = try writeZip(in: fixture).bytes
        bytes[1_000] ^= 0xFF  // inside one.bin's stored contents, which start after a ~60-byte header
        let damaged = try fixture.file("damaged.zip", bytes)

        #expect(try ZipReader.entries(of: damaged).map(\.name) == ["one.bin", "two.txt"])
        let error = #expect(throws: ArchiveError.self) { try fixture.contents(of: damaged) }
        #expect(error?.kind == .readFailed)
        #expect(error?.category == .invalidInput)
        #expect(error?.entry == "one.bin")
    }

    @Test("a file that is not a zip fails with category invalidInput")
    func notAZip() throws {
        let fixture = ArchiveFixture()
        let text = try fixture.file("notes.zip", text: String(repeating: "not a zip\n", count: 100))

        let error = #expect(throws: ArchiveError.self) { try ZipReader.entries(of: text) }
        #expect(error?.category == .invalidInput)
    }

    @Test("a missing zip fails with category io")
    func missingZip() throws {
        let fixture = ArchiveFixture()
        let error = #expect(throws: ArchiveError.self) { try ZipReader.entries(of: fixture.path("absent.zip")) }
        #expect(error?.kind == .readFailed)
        #expect(error?.category == .io)
    }
}
