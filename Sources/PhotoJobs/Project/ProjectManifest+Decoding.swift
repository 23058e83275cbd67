import Foundation
import Vips

// Decoding with snake_case keys, defaults for absent fields, and unknown keys refused (a typo
// such as "max_widht" must not be silently ignored).

extension ProjectManifest: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case version, name, assets, export }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        guard Self.supportedVersions.contains(version) else {
            throw DecodingError.dataCorruptedError(forKey: .version, in: container,
                                                   debugDescription: "version \(version) is not supported; this mediajob reads version 1")
        }
        name = try container.decode(String.self, forKey: .name)
        assets = try container.decode([Asset].self, forKey: .assets)
        export = try container.decodeIfPresent(ExportSettings.self, forKey: .export) ?? ExportSettings()
    }
}

extension ProjectManifest.Asset: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case path, output, edits }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        output = try container.decodeIfPresent(String.self, forKey: .output) ?? Self.defaultOutput(for: path)
        edits = try container.decodeIfPresent(ProjectManifest.Edits.self, forKey: .edits) ?? ProjectManifest.Edits()
    }

    /// The file's name without its extension: `photos/beach.jpg` → `beach`. Plain string work:
    /// Foundation's `NSString.lastPathComponent` traps on some paths, such as `///e//`.
    package static func defaultOutput(for path: String) -> String {
        let file = path.split(separator: "/").last.map(String.init) ?? ""
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return file }
        return String(file[..<dot])
    }
}

extension ProjectManifest.Edits: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case crop, rotate, maxWidth = "max_width", maxHeight = "max_height", exposure, contrast, saturation, trim
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        crop = try container.decodeIfPresent(ProjectManifest.Crop.self, forKey: .crop)
        rotate = try container.decodeIfPresent(Int.self, forKey: .rotate) ?? 0
        maxWidth = try container.decodeIfPresent(Int.self, forKey: .maxWidth)
        maxHeight = try container.decodeIfPresent(Int.self, forKey: .maxHeight)
        exposure = try container.decodeIfPresent(Double.self, forKey: .exposure) ?? 0
        contrast = try container.decodeIfPresent(Double.self, forKey: .contrast) ?? 1
        saturation = try container.decodeIfPresent(Double.self, forKey: .saturation) ?? 1
        trim = try container.decodeIfPresent(ProjectManifest.Trim.self, forKey: .trim)
    }
}

extension ProjectManifest.Crop: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case x, y, width, height }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        x = try container.decode(Int.self, forKey: .x)
        y = try container.decode(Int.self, forKey: .y)
        width = try container.decode(Int.self, forKey: .width)
        height = try container.decode(Int.self, forKey: .height)
    }
}

extension ProjectManifest.Trim: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case start, end }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        start = try container.decodeIfPresent(Double.self, forKey: .start) ?? 0
        end = try container.decodeIfPresent(Double.self, forKey: .end)
    }
}

extension ExportSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case image, video, audio, package, metadata }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        image = try container.decodeIfPresent(ImageSettings.self, forKey: .image) ?? ImageSettings()
        video = try container.decodeIfPresent(VideoSettings.self, forKey: .video) ?? VideoSettings()
        audio = try container.decodeIfPresent(AudioSettings.self, forKey: .audio) ?? .copy
        package = try container.decodeIfPresent(PackageSettings.self, forKey: .package) ?? PackageSettings()
        metadata = try container.decodeChoice(MetadataPolicy.self, forKey: .metadata) ?? metadata
    }
}

extension ExportSettings.ImageSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case format, quality, profile }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Familiar spellings (`jpg`, `PNG`) mean the format; anything else stays for the validator to name.
        format = try container.decodeIfPresent(String.self, forKey: .format).map { ImageFormat(spelling: $0)?.rawValue ?? $0 } ?? format
        quality = try container.decodeIfPresent(Int.self, forKey: .quality) ?? quality
        profile = try container.decodeChoice(ColourProfilePolicy.self, forKey: .profile) ?? profile
    }
}

extension ExportSettings.VideoSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case codec, crf, preset, maxHeight = "max_height", chunkSeconds = "chunk_seconds", hdr
    }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        codec = try container.decodeIfPresent(String.self, forKey: .codec) ?? codec
        crf = try container.decodeIfPresent(Int.self, forKey: .crf) ?? crf
        preset = try container.decodeIfPresent(String.self, forKey: .preset) ?? preset
        maxHeight = try container.decodeIfPresent(Int.self, forKey: .maxHeight)
        chunkSeconds = try container.decodeIfPresent(Double.self, forKey: .chunkSeconds) ?? chunkSeconds
        hdr = try container.decodeIfPresent(String.self, forKey: .hdr) ?? hdr
    }
}

extension ExportSettings.AudioSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case codec, bitrate }

    /// `"copy"`, or `{"codec": "aac", "bitrate": 128000}`.
    public init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            guard text == "copy" else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                        debugDescription: "'\(text)' is not an audio setting; use \"copy\" or {\"codec\": \"aac\", \"bitrate\": 128000}"))
            }
            self = .copy
            return
        }
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let codec = try container.decode(String.self, forKey: .codec)
        guard codec == "aac" else {
            throw DecodingError.dataCorruptedError(forKey: .codec, in: container,
                                                   debugDescription: "'\(codec)' is not supported; audio is copied or re-encoded to aac")
        }
        self = .aac(bitrate: try container.decodeIfPresent(Int.self, forKey: .bitrate) ?? 128_000)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .copy:
            var container = encoder.singleValueContainer()
            try container.encode("copy")
        case .aac(let bitrate):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode("aac", forKey: .codec)
            try container.encode(bitrate, forKey: .bitrate)
        }
    }
}

extension ExportSettings.PackageSettings: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case format, name }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format) ?? format
        name = try container.decodeIfPresent(String.self, forKey: .name)
    }
}

/// Any key, for listing the keys an object has.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension KeyedDecodingContainer {
    /// One of a text enumeration's values, or `nil` when absent; any other text is refused with
    /// the values it may take.
    package func decodeChoice<Choice: RawRepresentable & CaseIterable>(_: Choice.Type, forKey key: Key) throws -> Choice?
    where Choice.RawValue == String {
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let choice = Choice(rawValue: text) else {
            let choices = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
            throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "must be \(choices), got '\(text)'")
        }
        return choice
    }
}

extension Decoder {
    /// Throws when the object has a key that `Keys` does not name.
    package func refuseUnknownKeys<Keys: CodingKey & CaseIterable>(_: Keys.Type) throws {
        let known = Set(Keys.allCases.map(\.stringValue))
        let present = try container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        if let unknown = present.sorted().first(where: { !known.contains($0) }) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [AnyKey(stringValue: unknown)],
                debugDescription: "unknown field; expected one of \(known.sorted().joined(separator: ", "))"))
        }
    }
}
