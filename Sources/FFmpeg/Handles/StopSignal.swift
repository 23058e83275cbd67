import CFFmpegShim
import Synchronization

/// A caller's `shouldStop` closure, latched: once it has said stop, the signal stays stopped.
///
/// Installed on every format context as its `AVIOInterruptCB` (a C callback with this object as
/// the opaque context), so blocking reads and writes end with `AVERROR_EXIT`, and checked by the
/// frame loops between frames. The owner of the format context keeps the signal alive.
final class StopSignal: Sendable {
    private let shouldStop: @Sendable () -> Bool
    private let latched = Atomic<Bool>(false)

    /// Wraps `shouldStop`.
    init(_ shouldStop: @escaping @Sendable () -> Bool) {
        self.shouldStop = shouldStop
    }

    /// A signal that never stops.
    static let never = StopSignal { false }

    /// Whether to stop; asks the closure until it has said yes once.
    var isStopped: Bool {
        if latched.load(ordering: .relaxed) { return true }
        guard shouldStop() else { return false }
        latched.store(true, ordering: .relaxed)
        return true
    }

    /// Throws ``FFmpegError/Kind-swift.enum/stopped`` when asked to stop.
    func check(path: String) throws(FFmpegError) {
        if isStopped {
            throw FFmpegError(.stopped, operation: "stop", path: path, code: shim_AVERROR_EXIT(), reason: "stop requested")
        }
    }

    /// Installs this signal as the interrupt callback of `context`, before it opens anything.
    func install(on context: UnsafeMutablePointer<AVFormatContext>) {
        shim_set_interrupt(context, { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<StopSignal>.fromOpaque(opaque).takeUnretainedValue().isStopped ? 1 : 0
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// The interrupt callback for contexts FFmpeg opens on its own (`avio_open2`).
    var interruptCallback: AVIOInterruptCB {
        AVIOInterruptCB(callback: { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<StopSignal>.fromOpaque(opaque).takeUnretainedValue().isStopped ? 1 : 0
        }, opaque: Unmanaged.passUnretained(self).toOpaque())
    }
}
