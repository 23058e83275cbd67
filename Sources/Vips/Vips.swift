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

    /// Starts libvips for this process: once, thread-safe, idempotent.
    ///
    /// The first call does the work; later calls return at once and ignore their argument.
    /// It sets `TMPDIR` to `temporaryDirectory` when given (libvips reads it once, so its large
    /// temporary files land in the job's workspace), starts libvips (`VIPS_INIT`), blocks
    /// untrusted loaders (SVG, PDF, JPEG 2000, JPEG XL, ImageMagick: they parse complex formats
    /// with a history of exploits), and turns libvips' operation cache off: it keeps recent
    /// operations and the images they hold for reuse, and a batch processor does not repeat an
    /// operation on the same image, so all it kept was each photo's last images (5.6 MiB of the
    /// peak of a 50-photo thumbnail run, with 100 operations and 64 MiB allowed).
    ///
    /// Setting `TMPDIR` changes the process environment: call this before starting other threads
    /// that read the environment.
    ///
    /// - Parameter temporaryDirectory: Where libvips puts temporary files; `nil` keeps `TMPDIR`.
    /// - Throws: ``VipsError`` of kind ``VipsError/Kind/other`` when libvips cannot start (a
    ///   broken installation); every later call throws the same.
    public static func initialize(temporaryDirectory: String? = nil) throws {
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
                guard shim_vips_init("mediajob") == 0 else {
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
