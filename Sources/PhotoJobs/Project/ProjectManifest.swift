import Foundation
import Vips

/// A project: a folder with a versioned `project.json` naming its assets, their edits, and how
/// to export them.
public struct ProjectManifest: Sendable, Equatable, Encodable {
    /// The manifest versions this program reads.
    public static let supportedVersions = 1...1

    public var version: Int
    /// The project's name, used for the package's default name.
    public var name: String
    /// The images and videos to export, in order.
    public var assets: [Asset]
    /// How to export them.
    public var export: ExportSettings

    /// One image or video of the project.
    public struct Asset: Sendable, Equatable, Encodable {
        /// The file, relative to the project folder; never outside it.
        public var path: String
        /// The output's base name in the package (without extension); defaults to the file's.
        public var output: String
        public var edits: Edits
    }

    /// What is done to an asset. Every field is optional; absent means unchanged.
    public struct Edits: Sendable, Equatable, Encodable {
        public var crop: Crop?
        /// Clockwise rotation in degrees: 0, 90, 180 or 270.
        public var rotate: Int = 0
        public var maxWidth: Int?
        public var maxHeight: Int?
        /// Exposure in stops (−4…4): values are multiplied by 2^exposure.
        public var exposure: Double = 0
        /// Contrast factor around mid-grey (0…4).
        public var contrast: Double = 1
        /// Saturation factor around luma (0…4).
        public var saturation: Double = 1
        /// The part of a video to keep.
        public var trim: Trim?

        public init() {}
    }

    /// A rectangle in source pixels.
    public struct Crop: Sendable, Equatable, Encodable {
        public var x: Int, y: Int, width: Int, height: Int

        /// The rectangle of `width` × `height` pixels whose top left corner is at `x`, `y`.
        public init(x: Int, y: Int, width: Int, height: Int) {
            (self.x, self.y, self.width, self.height) = (x, y, width, height)
        }
    }

    /// A time range in seconds; `end` absent means to the end.
    public struct Trim: Sendable, Equatable, Encodable {
        public var start: Double
        public var end: Double?
    }
}

/// How a project is exported.
public struct ExportSettings: Sendable, Equatable, Encodable {
    public var image = ImageSettings()
    public var video = VideoSettings()
    public var audio = AudioSettings.copy
    public var package = PackageSettings()
    /// What photos keep of their metadata: `safe` (the default) or `all`.
    public var metadata = MetadataPolicy.safe

    public init() {}

    /// Still images.
    public struct ImageSettings: Sendable, Equatable, Encodable {
        /// `jpeg`, `webp`, `avif` or `png`.
        public var format = "jpeg"
        /// 1…100 (ignored for png).
        public var quality = 85
        /// `srgb` (the default: converted to sRGB through the embedded profile) or `keep` (the
        /// source's colour space and profile).
        public var profile = ColourProfilePolicy.srgb
    }

    /// Videos.
    public struct VideoSettings: Sendable, Equatable, Encodable {
        /// The default of ``chunkSeconds``: a stop lands within about this long.
        public static let defaultChunkSeconds = 5.0

        /// `h264` (libx264), `hevc` or `av1` where the libraries have them.
        public var codec = "h264"
        /// Constant rate factor, 0…51.
        public var crf = 23
        /// The encoder preset, `ultrafast` … `veryslow`.
        public var preset = "veryfast"
        /// The tallest output, in pixels; absent keeps the source's.
        public var maxHeight: Int?
        /// The most work one video segment may be, in seconds on the reference machine
        /// (MediaJobs' `VideoWork`): a stop lands within about this long; shorter costs bytes.
        public var chunkSeconds = Self.defaultChunkSeconds
        /// HDR (PQ, HLG) sources: `tonemap` to SDR BT.709 8-bit (default), or `keep` them HDR
        /// (10-bit, with their metadata; `hevc` and `av1` only).
        public var hdr = "tonemap"
    }

    /// Audio of videos: copied as it is, or re-encoded to AAC.
    public enum AudioSettings: Sendable, Equatable, Encodable {
        case copy
        case aac(bitrate: Int)
    }

    /// What the export produces.
    public struct PackageSettings: Sendable, Equatable, Encodable {
        /// `zip` (an archive with a manifest.json) or `folder`.
        public var format = "zip"
        /// The file or folder name; defaults to the project's name.
        public var name: String?
    }
}
