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
    /// Operation-cache caps: libvips keeps recent operations and their images for reuse; a batch
    /// processor rarely repeats one, so the cache is kept small.
    static let cacheMaxMemory = 64 * 1024 * 1024
    static let cacheMaxOperations: Int32 = 100
    static let cacheMaxFiles: Int32 = 20

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
    /// with a history of exploits), and caps the operation cache at 64 MiB, 100 operations and
    /// 20 open files.
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
                shim_vips_configure(cacheMaxMemory, cacheMaxOperations, cacheMaxFiles)
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
