import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ProjectLoader {
    /// The largest `project.json` read: far more than any real project needs (about 100 000
    /// assets), small enough that a hostile one cannot exhaust memory.
    public static let maxManifestBytes = 8 << 20

    /// The bytes of the manifest `file` of the project `folder`, read only if it is a regular file
    /// of at most ``maxManifestBytes``: a FIFO or device (`/dev/zero` through a symbolic link)
    /// would block or never end.
    /// - Throws: ``ManifestError`` for a missing, unreadable, special or oversized file.
    static func contents(of file: URL, in folder: URL) throws -> Data {
        func refuse(_ problem: String) -> ManifestError { ManifestError(file: file.path, field: "", problem: problem) }
        // O_NONBLOCK: opening a FIFO must not wait for a writer; regular files ignore it.
        let descriptor = open(file.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno))
            throw refuse(FileManager.default.fileExists(atPath: folder.path)
                ? "cannot be read (\(reason)); a project folder holds a \(manifestName) (see the README for the format)"
                : "the project folder does not exist")
        }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            throw refuse("is not a regular file; \(manifestName) must be a plain JSON file")
        }
        guard status.st_size <= maxManifestBytes else {
            throw refuse("is \(status.st_size / (1 << 20)) MB; a \(manifestName) may be at most \(maxManifestBytes >> 20) MB")
        }
        do {
            // One byte more than allowed, in case the file grew after fstat.
            let data = try handle.read(upToCount: maxManifestBytes + 1) ?? Data()
            guard data.count <= maxManifestBytes else {
                throw refuse("grew past \(maxManifestBytes >> 20) MB while being read")
            }
            return data
        } catch let error as ManifestError {
            throw error
        } catch {
            throw refuse("cannot be read (\(error.localizedDescription))")
        }
    }
}
