import CVips
import CVipsShim
import Foundation

extension VipsImage {
    /// Rec. 601 luma weights for R, G, B.
    static let lumaWeights = [0.299, 0.587, 0.114]

    /// The image with exposure, contrast and saturation changed, by this exact definition
    /// (the GPU path must match it):
    ///
    /// On 8-bit sRGB values `v` in 0…255 (the image is first converted with ``toSRGB8()``
    /// unless it is already 8-bit sRGB or 8-bit grey), computed in floating point:
    /// 1. exposure `e` (stops): `v₁ = v · 2^e`
    /// 2. contrast `c`: `v₂ = (v₁ − 128) · c + 128`
    /// 3. saturation `s`, per pixel with its Rec. 601 luma `Y = 0.299 R₂ + 0.587 G₂ + 0.114 B₂`:
    ///    `v₃ = Y + (v₂ − Y) · s` (grey images have `Y = v₂`, so saturation leaves them alone)
    /// 4. round to the nearest integer (halves to even), then clamp to 0…255.
    ///
    /// No clamping happens between the steps. Alpha is untouched. `(0, 1, 1)` returns the image
    /// itself at no cost.
    ///
    /// - Parameters:
    ///   - exposure: Stops; 0 leaves brightness alone, 1 doubles it.
    ///   - contrast: Factor around mid-grey 128; 1 leaves it alone, 0 gives flat grey.
    ///   - saturation: Factor away from grey; 1 leaves it alone, 0 gives grey.
    public func adjusted(exposure: Double = 0, contrast: Double = 1, saturation: Double = 1) throws -> VipsImage {
        if exposure == 0 && contrast == 1 && saturation == 1 { return self }
        let base = try eightBitForAdjusting()
        let colourBands = base.hasAlpha ? base.bands - 1 : base.bands
        let colour = base.hasAlpha ? try base.extractBands(first: 0, count: colourBands) : base

        // Steps 1 and 2 together are v₂ = a·v + b; step 3 is a matrix M whose rows sum to 1,
        // so M·(a·v + b) = a·M·v + b: one recombination and one addition.
        let a = pow(2, exposure) * contrast
        let b = 128 * (1 - contrast)
        let changed: VipsImage
        if colourBands == 3 && saturation != 1 {
            var matrix: [Double] = []
            for row in 0..<3 {
                for column in 0..<3 {
                    let identity = row == column ? saturation : 0
                    matrix.append(a * (identity + (1 - saturation) * Self.lumaWeights[column]))
                }
            }
            changed = try colour.recombined(matrix, rows: 3, columns: 3).linear(1, b)
        } else {
            changed = try colour.linear(a, b)
        }
        let eightBit = try changed.rint().cast(to: VIPS_FORMAT_UCHAR)
        guard base.hasAlpha else { return eightBit }
        return try eightBit.joiningBands(base.extractBands(first: colourBands, count: 1))
    }

    /// The image with its alpha composited onto a solid colour and dropped; the image itself
    /// when it has no alpha.
    ///
    /// - Parameter background: One value per colour band (0…255 for 8-bit), or one value for
    ///   all bands; `[255]` is white.
    /// - Throws: ``VipsError/Kind/invalidArgument`` for an empty colour.
    public func flattened(background: [Double]) throws -> VipsImage {
        guard hasAlpha else { return self }
        guard !background.isEmpty else {
            throw VipsError(.invalidArgument, path: sourcePath, reason: "the flatten background colour is empty")
        }
        let format = vips_image_get_format(pointer)
        let flat = try background.withUnsafeBufferPointer { colour in
            try derive { shim_flatten($0, $1, colour.baseAddress, Int32(colour.count)) }
        }
        return try flat.cast(to: format)
    }

    /// The image in the sRGB colour space with 8-bit samples (alpha kept): what JPEG, WebP and
    /// screens expect. Grey images become three-band sRGB; 16-bit images are scaled down.
    public func toSRGB8() throws -> VipsImage {
        if interpretation == VIPS_INTERPRETATION_sRGB && isEightBit { return self }
        return try derive { shim_colourspace_srgb($0, $1) }.cast(to: VIPS_FORMAT_UCHAR)
    }

    /// 8-bit sRGB or 8-bit grey as is; anything else through ``toSRGB8()``.
    private func eightBitForAdjusting() throws -> VipsImage {
        let colour = (interpretation == VIPS_INTERPRETATION_sRGB && bands >= 3)
            || (interpretation == VIPS_INTERPRETATION_B_W && bands <= 2)
        if isEightBit && colour { return self }
        return try toSRGB8()
    }
}
