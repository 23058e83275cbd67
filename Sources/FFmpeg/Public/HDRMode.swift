/// What ``SegmentEncoder`` does with a high-dynamic-range source (PQ or HLG transfer).
public enum HDRMode: String, Sendable, Codable, Equatable {
    /// Tone-map to SDR BT.709, 8-bit (``ToneMapper``): what every screen shows correctly.
    case toneMap = "tonemap"
    /// Keep HDR: 10-bit output with the source's transfer, primaries and matrix, and its mastering
    /// display and content light level metadata. Needs an HEVC (`libx265`) or AV1 (`libsvtav1`)
    /// encoder; pictures may be cropped, turned and resized but not colour-edited.
    case keep
}
