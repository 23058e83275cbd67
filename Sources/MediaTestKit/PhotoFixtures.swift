import Foundation

/// Photos made for tests with the `vips` and `exiftool` command-line tools, and measurements with
/// them: an independent reference, never the code under test.
public enum PhotoFixtures {
    /// A wide-gamut colour space a test photo can be tagged with.
    public enum WideGamut: String, CaseIterable, Sendable {
        case displayP3, adobeRGB, proPhotoRGB

        /// The profile as `vips icc_transform` takes it: a libvips built-in name or a file.
        public var profile: String {
            switch self {
            case .displayP3: "p3"
            case .adobeRGB: "/usr/share/color/icc/colord/AdobeRGB1998.icc"
            case .proPhotoRGB: "/usr/share/color/icc/colord/ProPhotoRGB.icc"
            }
        }
    }

    /// Runs `vips <arguments>` and returns what it printed.
    @discardableResult
    public static func vips(_ arguments: [String]) throws -> String {
        try output(of: "/usr/bin/vips", arguments)
    }

    /// `exiftool -j` on `path`: the file's tags by exiftool's names.
    public static func exif(_ path: String) throws -> [String: Any] {
        let text = try output(of: "/usr/bin/exiftool", ["-j", path])
        let list = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// Writes tags with `exiftool -overwrite_original`, each as `Name=value`.
    public static func writeTags(_ tags: [String], to path: String) throws {
        _ = try output(of: "/usr/bin/exiftool", ["-q", "-overwrite_original"] + tags.map { "-\($0)" } + [path])
    }

    /// Tags a photo is given for metadata tests (`exiftool` names): what the safe policy keeps
    /// and what it removes.
    public static let keptTags = ["Copyright=Someone 2026", "Artist=Ann Example", "ImageDescription=A test picture",
                                  "DateTimeOriginal=2026:01:02 03:04:05"]
    public static let privateTags = ["GPSLatitude=48.8566", "GPSLatitudeRef=N", "GPSLongitude=2.3522",
                                     "GPSLongitudeRef=E", "SerialNumber=SN-123456", "OwnerName=Ann Private",
                                     "XMP-dc:Creator=Ann Private", "XMP-xmp:Label=private"]
    /// The names `exiftool -j` reports for ``privateTags``.
    public static let privateNames = ["GPSLatitude", "GPSLongitude", "SerialNumber", "OwnerName", "Creator", "Label"]

    /// A busy, colourful 8-bit sRGB picture (a ramp in red, another in green, a pattern in blue),
    /// saved by its extension with `vips`.
    public static func picture(_ path: String, width: Int = 320, height: Int = 240) throws {
        let folder = NSTemporaryDirectory() + "photo-fixture-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let part = { (name: String) in "\(folder)/\(name).v" }
        try vips(["xyz", part("xy"), String(width), String(height)])
        try vips(["extract_band", part("xy"), part("x"), "0"])
        try vips(["extract_band", part("xy"), part("y"), "1"])
        try vips(["linear", part("x"), part("red"), String(250.0 / Double(width)), "3", "--uchar"])
        try vips(["linear", part("y"), part("green"), String(200.0 / Double(height)), "40", "--uchar"])
        try vips(["add", part("x"), part("y"), part("sum")])
        try vips(["remainder_const", part("sum"), part("mod"), "97"])
        try vips(["linear", part("mod"), part("blue"), "2", "30", "--uchar"])
        try vips(["bandjoin", "\(part("red")) \(part("green")) \(part("blue"))", part("rgb")])
        try vips(["copy", part("rgb"), path, "--interpretation", "srgb"])
    }

    /// A picture whose pixels are in `space` and that embeds its profile: ``picture(_:width:height:)``
    /// converted with `vips icc_transform` and saved by the extension of `path` (a saver option
    /// such as `[Q=95]` may follow it).
    public static func widePicture(_ path: String, in space: WideGamut, width: Int = 320, height: Int = 240) throws {
        let plain = NSTemporaryDirectory() + "plain-\(UUID().uuidString.prefix(8)).png"
        defer { try? FileManager.default.removeItem(atPath: plain) }
        try picture(plain, width: width, height: height)
        try vips(["icc_transform", plain, path, space.profile])
    }

    /// The mean absolute difference of two images of the same size and bands, in levels
    /// (`vips subtract`, `abs`, `avg`).
    public static func meanDifference(_ a: String, _ b: String) throws -> Double {
        try difference(a, b, statistic: "avg")
    }

    /// The largest absolute difference of two images of the same size and bands, in levels
    /// (`vips subtract`, `abs`, `max`): 0 when every pixel is the same.
    public static func maxDifference(_ a: String, _ b: String) throws -> Double {
        try difference(a, b, statistic: "max")
    }

    /// `statistic` (`avg` or `max`) of the absolute difference of two images.
    private static func difference(_ a: String, _ b: String, statistic: String) throws -> Double {
        let folder = NSTemporaryDirectory() + "difference-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try vips(["subtract", a, b, "\(folder)/d.v"])
        try vips(["abs", "\(folder)/d.v", "\(folder)/a.v"])
        let text = try vips([statistic, "\(folder)/a.v"]).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let value = Double(text) else { throw MediaFixtures.FixtureError(message: "vips \(statistic) printed '\(text)'") }
        return value
    }

    /// `vips icc_transform <input> <output> srgb`: the reference sRGB rendering of a tagged file.
    public static func srgbReference(of input: String, to output: String) throws {
        try vips(["icc_transform", input, output, "srgb"])
    }

    private static func output(of path: String, _ arguments: [String]) throws -> String {
        try MediaFixtures.run(path, arguments).output
    }
}
