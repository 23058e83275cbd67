/// How a loaded image's pixels will be read.
public enum ImageAccess: String, Sendable, Codable, CaseIterable {
    /// Any pixel in any order, any number of times: libvips decodes the whole image on first
    /// use (into memory, or a temporary file under `TMPDIR` when large). Right for images that
    /// are rotated, or written more than once.
    case random
    /// One pass from top to bottom, with little memory: for load → crop, resize, adjust → one
    /// save. Rotating by 90°, 180° or 270°, or reading the image a second time, may fail with
    /// an "out of order read" error. EXIF autorotation is still applied: a file that needs it
    /// is opened with random access instead.
    case sequential
}
