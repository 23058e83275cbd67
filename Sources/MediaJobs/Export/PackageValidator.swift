import Archive
import FFmpeg
import Foundation

/// Reopens a written package and checks every entry's name, order, size and SHA-256.
enum PackageValidator {
    static func validate(zip path: String, against files: [PackageFile]) throws {
        var index = 0
        try ZipReader.forEachEntry(of: path) { info, contents in
            guard index < files.count, info.name == files[index].name, info.size == files[index].size else {
                throw PackageError.mismatch("entry \(index) is \(info.name) (\(info.size) bytes)")
            }
            let hasher = SHA256Hasher()
            try contents.readChunks { hasher.update(Data($0)) }
            guard hasher.finalize() == files[index].sha256 else {
                throw PackageError.mismatch("\(info.name) does not match its SHA-256")
            }
            index += 1
        }
        guard index == files.count else { throw PackageError.mismatch("\(index) entries, expected \(files.count)") }
    }
}
