import CVips
import CVipsShim

extension VipsImage {
    /// Whether the image carries an embedded ICC colour profile.
    public var hasColourProfile: Bool { shim_has_icc(pointer) != 0 }

    /// Whether the pixels are CMYK (four ink bands, maybe with alpha).
    public var isCMYK: Bool { interpretation == VIPS_INTERPRETATION_CMYK }

    /// The image with its colour handled as `policy` says (see ``ColourProfilePolicy``).
    ///
    /// With ``ColourProfilePolicy/srgb``, an image with an embedded profile, and any CMYK image,
    /// is converted to 8-bit sRGB through lcms (relative colorimetric intent) and carries an sRGB
    /// profile afterwards; an image without a profile is returned as it is (taken as sRGB). With
    /// ``ColourProfilePolicy/keep`` only CMYK images are converted. Alpha is kept.
    /// - Throws: ``VipsError/Kind/corrupt`` when the embedded profile cannot be used.
    public func colourManaged(_ policy: ColourProfilePolicy) throws -> VipsImage {
        guard isCMYK || (policy == .srgb && hasColourProfile) else { return self }
        var output: ImagePointer?
        try VipsError.check(shim_icc_to_srgb(pointer, &output)) {
            VipsError(.corrupt, path: sourcePath, reason: "its colour profile cannot be used", libraryMessage: $0)
        }
        return VipsImage(owning: output!, sourcePath: sourcePath)
    }

    /// These pixels with `source`'s metadata (EXIF, XMP, IPTC, ICC profile, comments) instead of
    /// their own: for pixels rendered outside libvips that stand for `source`.
    public func withMetadata(of source: VipsImage) throws -> VipsImage {
        try withExtendedLifetime(source) {
            guard let view = shim_view_with_metadata_of(pointer, source.pointer) else {
                throw VipsError(.other, path: sourcePath, libraryMessage: VipsError.takeLibraryMessage())
            }
            return VipsImage(owning: view, sourcePath: sourcePath)
        }
    }

    /// These pixels without any metadata, their colour profile included: for images made of
    /// several others, and for pixels known to be sRGB already (a profile-less image is taken as
    /// sRGB, so ``colourManaged(_:)`` leaves it alone instead of building a colour transform).
    public func withoutMetadata() throws -> VipsImage {
        guard let view = shim_view_with_metadata_of(pointer, nil) else {
            throw VipsError(.other, path: sourcePath, libraryMessage: VipsError.takeLibraryMessage())
        }
        return VipsImage(owning: view, sourcePath: sourcePath)
    }

    /// Whether the image carries metadata the safe policy removes and people may not mean to
    /// share: location (GPS), serial numbers, the owner's name, maker notes, XMP, IPTC, comments.
    public var carriesPrivateMetadata: Bool { shim_has_private_metadata(pointer) != 0 }

    /// A view ready for a saver: metadata filtered by `policy`, no orientation (saved images are
    /// upright), and an sRGB profile on colour images that have none.
    func preparedForSaving(_ policy: MetadataPolicy) throws -> VipsImage {
        guard let view = shim_view_for_saving(pointer, policy == .all ? 1 : 0) else {
            throw VipsError(.other, path: sourcePath, libraryMessage: VipsError.takeLibraryMessage())
        }
        return VipsImage(owning: view, sourcePath: sourcePath)
    }
}
