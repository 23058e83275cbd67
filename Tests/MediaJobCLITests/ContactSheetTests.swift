import Foundation
import MediaTestKit
import Testing

/// Contact sheets beyond `--sheet-cells`, against sheets laid out by the `vips` command line from
/// the same thumbnails, cell positions computed by hand.
@Suite struct ContactSheetTests {
    @Test func photosBeyondASheetGoOnNumberedSheetsLaidOutAsVipsLaysThemOut() throws {
        let fixture = CLIFixture()
        let photos = fixture.folder.path("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        // Landscape, portrait, square and a panorama, so that cells are filled differently.
        let sizes = [(320, 240), (240, 320), (300, 300), (400, 100), (200, 150)]
        for (index, (width, height)) in sizes.enumerated() {
            try PhotoFixtures.picture("\(photos)/p\(index + 1).png", width: width, height: height)
        }
        let output = fixture.folder.path("thumbs")
        let result = try fixture.run("thumbnail", [photos, "--output", output, "--size", "64", "--format", "png",
                                                   "--sheet-cells", "4"])
        #expect(result.status == 0, "\(result.stderr)")
        let made = try FileManager.default.contentsOfDirectory(atPath: output).sorted()
        #expect(made == ["contact-sheet-1.jpg", "contact-sheet-2.jpg", "index.json",
                         "p1.png", "p2.png", "p3.png", "p4.png", "p5.png"], "\(made)")

        // Each thumbnail centred in a 64 × 64 cell of grey 32; sheets of 2 columns (⌈√4⌉), 8 apart.
        func cell(_ name: String) throws -> String {
            let thumbnail = "\(output)/\(name).png"
            let width = try Self.dimension("width", of: thumbnail), height = try Self.dimension("height", of: thumbnail)
            let cell = fixture.folder.path("cell-\(name).v")
            try PhotoFixtures.vips(["embed", thumbnail, cell, String((64 - width) / 2), String((64 - height) / 2), "64", "64",
                                    "--extend", "background", "--background", "32 32 32"])
            return cell
        }
        for (sheet, names, size) in [(1, ["p1", "p2", "p3", "p4"], (136, 136)), (2, ["p5"], (64, 64))] {
            let cells = try names.map(cell), reference = fixture.folder.path("reference-\(sheet).v")
            if cells.count == 1 { // a sheet of one cell is that cell (`vips arrayjoin` wants two images or more)
                try PhotoFixtures.vips(["copy", cells[0], reference])
            } else {
                try PhotoFixtures.vips(["arrayjoin", cells.joined(separator: " "), reference,
                                        "--across", "2", "--shim", "8", "--background", "32 32 32"])
            }
            let encoded = fixture.folder.path("reference-\(sheet).jpg")
            try PhotoFixtures.vips(["copy", reference, "\(encoded)[Q=85]"])
            let produced = "\(output)/contact-sheet-\(sheet).jpg"
            #expect(try Self.dimension("width", of: produced) == size.0)
            #expect(try Self.dimension("height", of: produced) == size.1)
            // The same pixels through the same JPEG encoder give the same JPEG.
            #expect(try PhotoFixtures.maxDifference(produced, encoded) == 0, "sheet \(sheet)")
        }
    }

    @Test func sheetsWiderThanAJPEGCanBeAreRefusedBeforeTheRunStarts() throws {
        let fixture = CLIFixture()
        let photos = fixture.folder.path("photos")
        try FileManager.default.createDirectory(atPath: photos, withIntermediateDirectories: true)
        // 16 columns of 4,096 pixels, 8 apart: 65,656 pixels. Nothing is read before the refusal.
        for index in 0..<226 {
            FileManager.default.createFile(atPath: "\(photos)/p\(index).jpg", contents: Data())
        }
        let output = fixture.folder.path("thumbs")
        let result = try fixture.run("thumbnail", [photos, "--output", output, "--size", "4096", "--sheet-cells", "226"])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("give --sheet-cells 225 or less"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// `vipsheader -f <field>`: an image's width or height as libvips reads it.
    private static func dimension(_ field: String, of path: String) throws -> Int {
        let text = try MediaFixtures.run("/usr/bin/vipsheader", ["-f", field, path]).output
        return try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "vipsheader printed '\(text)'")
    }
}
