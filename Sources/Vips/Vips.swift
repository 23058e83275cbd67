import CVips
import CVipsShim
import Glibc
import Synchronization

/// Process-wide set-up of libvips and facts about the linked library.
///
/// Call ``initialize(temporaryDirectory:)`` once at start-up, before any image work. Every entry
/// point of ``VipsImage`` also initialises on first use with the defaults, so forgetting it is
/// safe, but then libvips' temporary files go to the system's temporary folder.
public enum Vips {
    private enum State {
        case notStarted
        case ready
        case failed(String)
    }

    private static let state = Mutex<State>(.notStarted)

    /// Which of libvips' plugin modules a process starts with: in libvips 8.14 (Debian's), PDF
    /// (poppler), OpenSlide, JPEG XL, HEIF/AVIF and ImageMagick, each with its libraries.
    public enum Modules: Sendable {
        /// Every module, as libvips starts by itself.
        case all
        /// None: only the formats built into libvips itself (``BuiltInFormats``), for a process
        /// whose work needs no other. Starting so takes about half the CPU time of a start with
        /// them and 6-7 MiB less memory.
        case none
    }

    /// Starts libvips for this process: once, thread-safe, idempotent.
    ///
    /// The first call does the work; later calls return at once and ignore their arguments.
    /// It sets `TMPDIR` to `temporaryDirectory` when given (libvips reads it once, so its large
    /// temporary files land in the job's workspace), starts libvips (`VIPS_INIT`), blocks
    /// untrusted loaders (SVG, PDF, JPEG 2000, JPEG XL, ImageMagick: they parse complex formats
    /// with a history of exploits), and turns libvips' operation cache off: it keeps recent
    /// operations and the images they hold for reuse, and a batch processor does not repeat an
    /// operation on the same image, so all it kept was each photo's last images (5.6 MiB of the
    /// peak of a 50-photo thumbnail run, with 100 operations and 64 MiB allowed).
    ///
    /// libvips 8.14 loads its modules from the folder `VIPSHOME` names, or from where it guesses it
    /// was installed, and writes that guess to `VIPSHOME`. A `VIPSHOME` set before this call is
    /// left to libvips, so `modules` is then ignored; otherwise `VIPSHOME` is unset again after the
    /// start, so that programs this process starts (`mediajob-media`) load libvips' modules
    /// whichever way this one started, and libvips' messages are translated from the same place
    /// either way.
    ///
    /// Setting `TMPDIR` and `VIPSHOME` changes the process environment: call this before starting
    /// other threads that read the environment.
    ///
    /// - Parameters:
    ///   - temporaryDirectory: Where libvips puts temporary files; `nil` keeps `TMPDIR`.
    ///   - modules: The plugin modules to start with: ``Modules/none`` only when nothing the
    ///     process will read or write needs one (``BuiltInFormats/modules(reading:writing:)``).
    /// - Throws: ``VipsError`` of kind ``VipsError/Kind/other`` when libvips cannot start (a
    ///   broken installation); every later call throws the same.
    public static func initialize(temporaryDirectory: String? = nil, modules: Modules = .all) throws {
        try state.withLock { state in
            switch state {
            case .ready:
                return
            case .failed(let libraryMessage):
                throw VipsError.startFailed(libraryMessage)
            case .notStarted:
                if let temporaryDirectory {
                    setenv("TMPDIR", temporaryDirectory, 1)
                }
                guard shim_vips_init("mediajob", modules == .all ? 1 : 0) == 0 else {
                    let libraryMessage = VipsError.takeLibraryMessage()
                    state = .failed(libraryMessage)
                    throw VipsError.startFailed(libraryMessage)
                }
                shim_vips_configure()
                state = .ready
            }
        }
    }

    /// The linked libvips version, for example `8.14.1`.
    public static var version: String {
        String(cString: vips_version_string())
    }

    /// Initialises with the defaults unless already done; every public entry point calls this.
    static func ensureInitialized() throws {
        try initialize()
    }
}
