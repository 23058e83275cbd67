/// Which of a photo's metadata an output carries.
public enum MetadataPolicy: String, Sendable, Codable, CaseIterable {
    /// Capture time (EXIF DateTimeOriginal with its sub-seconds and time offset), description
    /// (ImageDescription), artist, copyright and the colour profile; no location (GPS), serial
    /// numbers, maker notes, XMP, IPTC or comments.
    case safe
    /// Everything the source carries that the output format can hold.
    case all
}
