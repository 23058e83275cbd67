import TaskContract

/// A libvips operation failed: what went wrong, which file, and libvips' own words.
///
/// ``message`` is for the person who ran the job; ``description`` adds libvips' text for the
/// journal.
public struct VipsError: CategorizedError, CustomStringConvertible, Equatable {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The file's format is refused on purpose (SVG, PDF, …: loaders libvips marks untrusted).
        /// `format` names it, for example `SVG`.
        case blockedLoader(format: String)
        /// The header declares more pixels than ``ImageLimits/maxPixels``; nothing was decoded.
        case tooManyPixels(width: Int, height: Int, limit: Int)
        /// The file is missing, a folder, or not readable.
        case unreadable
        /// No loader recognises the file's content.
        case unknownFormat
        /// The file is empty, truncated or damaged: decoding failed.
        case corrupt
        /// The caller asked to stop while pixels were being computed; the result was discarded.
        case stopped
        /// Writing the output failed; `noSpace` when the disk or quota is full.
        case writeFailed(noSpace: Bool)
        /// This libvips cannot write the format.
        case formatUnavailable(ImageFormat)
        /// An argument is out of range (a crop outside the image, sizes that do not match).
        case invalidArgument
        /// Anything else libvips reported.
        case other
    }

    /// What went wrong.
    public let kind: Kind
    /// The file concerned: the input for read and decode failures, the output for write failures.
    public let path: String?
    /// A short cause in plain words where the bridge knows one, for example
    /// `No such file or directory`.
    public let reason: String?
    /// libvips' error text captured at the failure site; empty when libvips was not involved.
    public let libraryMessage: String

    /// An error of the given kind.
    /// - Parameters:
    ///   - kind: What went wrong.
    ///   - path: The file concerned.
    ///   - reason: A short cause in plain words.
    ///   - libraryMessage: libvips' text.
    public init(_ kind: Kind, path: String?, reason: String? = nil, libraryMessage: String = "") {
        self.kind = kind
        self.path = path
        self.reason = reason
        self.libraryMessage = libraryMessage
    }

    /// Whether this is a requested stop rather than a failure: callers turn it into their own
    /// stop signal (the job then pauses).
    public var isStop: Bool { kind == .stopped }

    /// ``FailureCategory/invalidInput`` for bad inputs and arguments, ``FailureCategory/noSpace``
    /// and ``FailureCategory/io`` for write failures, ``FailureCategory/internal`` otherwise
    /// (including ``Kind/stopped``, which callers should not report as a failure at all).
    public var category: FailureCategory {
        switch kind {
        case .blockedLoader, .tooManyPixels, .unreadable, .unknownFormat, .corrupt, .formatUnavailable,
             .invalidArgument:
            .invalidInput
        case .writeFailed(let noSpace):
            noSpace ? .noSpace : .io
        case .stopped, .other:
            .internal
        }
    }

    /// What happened and what to do, naming the file.
    public var message: String {
        let file = path.map { "'\($0)'" } ?? "the image"
        let because = reason.map { ": \($0)" } ?? ""
        switch kind {
        case .blockedLoader(let format):
            return "\(file) is \(format) content; \(format) files are not accepted as input because their "
                + "decoders are not safe for untrusted files. Convert it to PNG or JPEG and try again."
        case .tooManyPixels(let width, let height, let limit):
            return "\(file) is \(width)×\(height) pixels, more than the limit of \(limit) pixels. "
                + "Downscale it first, or raise the pixel limit if the machine has the memory."
        case .unreadable:
            return "\(file) cannot be read\(because). Check that it exists and that you may read it."
        case .unknownFormat:
            return "\(file) is not an image format this program reads. "
                + "Use JPEG, PNG, WebP, AVIF/HEIF, TIFF or GIF."
        case .corrupt:
            return "\(file) is damaged or incomplete\(because). Copy or export the file again."
        case .stopped:
            return "Work on \(file) was stopped on request; nothing was written."
        case .writeFailed(let noSpace):
            if noSpace {
                return "No space left to write \(file). Free some space, then resume."
            }
            return "\(file) could not be written\(because). Check that the folder exists and is writable."
        case .formatUnavailable(let format):
            return "This libvips (\(Vips.version)) cannot write \(format.rawValue.uppercased()). "
                + "Choose another format, or install libvips with \(format.rawValue.uppercased()) support."
        case .invalidArgument:
            return "Invalid request for \(file)\(because)."
        case .other:
            return "Image processing failed for \(file)\(because). The job's journal has libvips' details."
        }
    }

    /// The message followed by libvips' own text, for the journal.
    public var description: String {
        libraryMessage.isEmpty ? message : "\(message) [libvips: \(libraryMessage)]"
    }
}
