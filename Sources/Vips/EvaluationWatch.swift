import CVips
import CVipsShim

/// Watches one evaluation (a save) of an image and kills it when `shouldStop` answers true.
///
/// The watch works on a private view of the image (``pointer``) so that signals and the kill
/// flag never touch an image other code may be evaluating at the same time. libvips asks
/// before the evaluation starts ("preeval") and after each batch of tiles ("eval"), from its
/// worker threads, hence the `@Sendable` closure.
final class EvaluationWatch {
    /// The private view to evaluate instead of the original image.
    let pointer: ImagePointer
    private let box: Unmanaged<Box>?
    private var watch: OpaquePointer?

    /// Holds the closure for the C callback.
    private final class Box {
        let shouldStop: @Sendable () -> Bool
        init(_ shouldStop: @escaping @Sendable () -> Bool) { self.shouldStop = shouldStop }
    }

    /// A view of `image`, watched when `shouldStop` is given.
    init(_ image: VipsImage, shouldStop: (@Sendable () -> Bool)?) throws {
        guard let view = shim_private_view(image.pointer) else {
            throw VipsError(.other, path: image.sourcePath, libraryMessage: VipsError.takeLibraryMessage())
        }
        pointer = view
        guard let shouldStop else {
            box = nil
            return
        }
        let box = Unmanaged.passRetained(Box(shouldStop))
        self.box = box
        watch = shim_stop_watch_attach(view, { context in
            let box = Unmanaged<Box>.fromOpaque(context!).takeUnretainedValue()
            return box.shouldStop() ? 1 : 0
        }, box.toOpaque())
    }

    /// Stops watching; returns whether a stop was requested at any point.
    func finish() -> Bool {
        guard let current = watch else { return false }
        watch = nil
        return shim_stop_watch_detach(current) != 0
    }

    deinit {
        _ = finish()
        box?.release()
        g_object_unref(pointer)
    }
}
