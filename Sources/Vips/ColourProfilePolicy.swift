/// What happens to a photo's colour profile on the way to an output.
public enum ColourProfilePolicy: String, Sendable, Codable, CaseIterable {
    /// Convert the pixels from the embedded ICC profile to sRGB (relative colorimetric intent,
    /// through lcms) and tag the output with an sRGB profile. A CMYK image without a profile is
    /// read through libvips' built-in CMYK profile. Untagged images are taken as sRGB.
    case srgb
    /// Leave the pixels in the source's colour space and embed the source's profile in the
    /// output. CMYK images are still converted to sRGB: the output formats hold RGB.
    case keep
}
