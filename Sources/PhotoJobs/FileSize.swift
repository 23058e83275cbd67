import Foundation

/// The size of a file, as the file system reports it.
package enum FileSize {
    /// Bytes in the file at `path`.
    package static func bytes(at path: String) throws -> Int64 {
        (try FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
    }
}
