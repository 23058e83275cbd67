import Synchronization
import Vips

/// The thumbnail job's ``VideoInputs`` in a program without FFmpeg (`mediajob-photo`): what
/// libvips loads is a photo, as it is to ``VideoInputs`` with FFmpeg, which asks libvips first;
/// a file that cannot be read at all (missing, a folder, a FIFO) fails with libvips' error, as
/// there. Anything else takes FFmpeg to tell a video from a bad file, so it is not guessed at:
/// it throws ``NeedsMediaProgram``, and the program hands the run to `mediajob-media`.
public final class PhotoOnlyInputs: VideoInputs {
    /// Set when an input only `mediajob-media` can judge was met.
    private let metNonPhoto = Mutex(false)
    /// Called when such an input is met (see ``whenNonPhotoMet(_:)``).
    private let onNonPhoto = Mutex<(@Sendable () -> Void)?>(nil)

    public init() {}

    /// Whether every file of `paths` is a photo libvips reads, or one that cannot be read at all
    /// (which fails here as it would with FFmpeg), so that a thumbnail run of them needs no FFmpeg.
    ///
    /// The headers are read on every core at once (the run waits for this before anything else
    /// starts), and no more are read once one file is found that needs FFmpeg.
    public func photosOnly(_ paths: [String], settings: BatchSettings) -> Bool {
        // A file that cannot be read at all (it throws) fails here as with FFmpeg.
        Concurrently.allSatisfy(paths.count) { (try? loadsAsPhoto(paths[$0], settings: settings)) != false }
    }

    /// Whether an input only `mediajob-media` can judge was met (a job that meets one pauses for it).
    public var needsMediaProgram: Bool { metNonPhoto.withLock { $0 } }

    /// Has `action` called, on the chunk's thread, each time an input only `mediajob-media` can
    /// judge is met: for a run whose chunks' stops do not stop the job by themselves (a worker's
    /// leased chunks), so that it stops the job too.
    public func whenNonPhotoMet(_ action: @escaping @Sendable () -> Void) {
        onNonPhoto.withLock { $0 = action }
    }

    /// For a running job: a photo, or ``NeedsMediaProgram`` (recorded, and the action of
    /// ``whenNonPhotoMet(_:)`` called).
    public func classify(_ path: String, settings: BatchSettings, scanKeyframes: Bool) throws -> InputKind {
        guard try loadsAsPhoto(path, settings: settings) else {
            metNonPhoto.withLock { $0 = true }
            onNonPhoto.withLock { $0 }?()
            throw NeedsMediaProgram(path: path)
        }
        return .photo
    }

    /// Whether libvips loads the file at `path`; `false` for anything else it can read.
    /// Loaded every time, as FFmpeg's classifier does: a file found a photo before may have changed
    /// since (the chunk asks only about a file whose thumbnail failed).
    /// - Throws: libvips' error for a file that cannot be read at all.
    private func loadsAsPhoto(_ path: String, settings: BatchSettings) throws -> Bool {
        do {
            _ = try VipsImage.load(path, limits: settings.imageLimits)
            return true
        } catch let error as VipsError where error.kind == .unreadable {
            throw error
        } catch {
            return false
        }
    }

    /// Never asked: ``classify(_:settings:scanKeyframes:)`` finds no videos.
    public func representativeFrame(of path: String, settings: BatchSettings, maxDimension: Int) throws -> VipsImage {
        throw NeedsMediaProgram(path: path)
    }
}

/// An input that only a program with FFmpeg can judge (a video, or a file that is neither a photo
/// nor a video), met where there is none. The thumbnail job pauses for it; the program hands the
/// job to `mediajob-media`.
public struct NeedsMediaProgram: Error, CustomStringConvertible {
    /// The input.
    public var path: String

    public var description: String {
        "'\(path)' is not a photo libvips reads; telling a video from a bad file takes mediajob-media"
    }
}
