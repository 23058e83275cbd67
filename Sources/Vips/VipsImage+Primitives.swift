import CVips
import CVipsShim

/// Single libvips operations the public edits are built from.
extension VipsImage {
    func cast(to format: VipsBandFormat) throws -> VipsImage {
        if vips_image_get_format(pointer) == format { return self }
        return try derive { shim_cast($0, $1, Int32(format.rawValue)) }
    }

    func rint() throws -> VipsImage {
        try derive { shim_rint($0, $1) }
    }

    func extractBands(first: Int, count: Int) throws -> VipsImage {
        try derive { shim_extract_bands($0, $1, Int32(first), Int32(count)) }
    }

    func joiningBands(_ other: VipsImage) throws -> VipsImage {
        try withExtendedLifetime(other) {
            try derive { shim_bandjoin2($0, other.pointer, $1) }
        }
    }

    /// `a × v + b` on every band, as float.
    func linear(_ a: Double, _ b: Double) throws -> VipsImage {
        try derive { shim_linear1($0, $1, a, b) }
    }

    /// Each pixel multiplied by a matrix given row by row, as float.
    func recombined(_ matrix: [Double], rows: Int, columns: Int) throws -> VipsImage {
        try matrix.withUnsafeBufferPointer { values in
            try derive { shim_recombine($0, $1, values.baseAddress, Int32(rows), Int32(columns)) }
        }
    }

    func premultiplied() throws -> VipsImage {
        try derive { shim_premultiply($0, $1) }
    }

    func unpremultiplied() throws -> VipsImage {
        try derive { shim_unpremultiply($0, $1) }
    }

    func subtracting(_ other: VipsImage) throws -> VipsImage {
        try withExtendedLifetime(other) {
            try derive { shim_subtract($0, other.pointer, $1) }
        }
    }

    func multiplying(_ other: VipsImage) throws -> VipsImage {
        try withExtendedLifetime(other) {
            try derive { shim_multiply($0, other.pointer, $1) }
        }
    }

    /// The pixels computed at once into memory, so that decode errors surface here and the
    /// result can be read any number of times, from any thread, without decoding again.
    func computedInMemory() throws -> VipsImage {
        var output: ImagePointer?
        try VipsError.check(shim_copy_memory(pointer, &output)) {
            VipsError.evaluation(libraryMessage: $0, stopRequested: false, source: sourcePath, destination: nil)
        }
        return VipsImage(owning: output!, sourcePath: sourcePath)
    }

    /// The mean of all samples; computes the pixels.
    func average() throws -> Double {
        var mean = 0.0
        try VipsError.check(shim_avg(pointer, &mean)) {
            VipsError.evaluation(libraryMessage: $0, stopRequested: false, source: sourcePath, destination: nil)
        }
        return mean
    }
}
