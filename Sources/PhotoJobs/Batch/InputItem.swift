import Foundation
import JobEngine
import TaskContract

/// One file a batch job works on, and the name its output gets.
public struct InputItem: Codable, Equatable, Sendable {
    /// The file.
    public var path: String
    /// A name unique in the batch, made from the path (folders joined with `_`), without extension.
    public var name: String
    /// Its size in bytes when the job was planned.
    public var size: Int64
}

/// Turns the files and folders named on a command line into the batch's items.
public enum InputCollector {
    /// Extensions of files taken from folders; files named directly are always taken.
    package static let mediaExtensions = photoExtensions.union(videoExtensions)
    /// The photos' among them.
    static let photoExtensions: Set<String> = ["jpg", "jpeg", "png", "webp", "avif", "heic", "heif", "tif", "tiff", "gif", "jxl"]
    /// The videos' among them: a file named so is most likely a video, though only its content says.
    package static let videoExtensions: Set<String> = ["mp4", "m4v", "mov", "mkv", "webm", "avi"]

    /// The items, in a fixed order: each input in turn, a folder's files sorted by path. Each is
    /// named after its file without extension; files that would share a name (`p3.jpg`, `p3.png`)
    /// keep their extension in it (`p3-jpg`, `p3-png`), so that outputs show their source.
    /// - Parameter keepingMissing: list an input that does not exist as an item (planning then
    ///   finds it unusable and, with `--skip-bad`, leaves it out) instead of throwing.
    /// - Throws: ``UnusableInputs`` naming every input that does not exist.
    public static func collect(_ inputs: [String], keepingMissing: Bool = false) throws -> [InputItem] {
        var files: [(URL, String)] = []
        var missing: [ItemFailure] = []
        for input in inputs {
            let url = URL(fileURLWithPath: input).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) || keepingMissing else {
                missing.append(ItemFailure(item: input, reason: "does not exist"))
                continue
            }
            files += isFolder.boolValue ? try filesInside(url) : [(url, url.deletingPathExtension().lastPathComponent)]
        }
        let shared = Dictionary(files.map { ($0.1.lowercased(), 1) }, uniquingKeysWith: +).filter { $0.value > 1 }
        var items: [InputItem] = []
        var taken: Set<String> = []
        for (file, base) in files {
            let ext = file.pathExtension.lowercased()
            let plain = shared[base.lowercased()] != nil && !ext.isEmpty ? "\(base)-\(ext)" : base
            var name = plain, suffix = 2
            while taken.contains(name.lowercased()) {
                name = "\(plain)-\(suffix)"
                suffix += 1
            }
            taken.insert(name.lowercased())
            let size = FileStatus(path: file.path)?.size ?? 0
            items.append(InputItem(path: file.path, name: name, size: size))
        }
        guard missing.isEmpty else { throw UnusableInputs(failures: missing) }
        return items
    }

    /// Media files under `folder`, recursively, hidden ones left out, sorted; each with a name
    /// made of its path inside the folder.
    private static func filesInside(_ folder: URL) throws -> [(URL, String)] {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                                                        options: [.skipsHiddenFiles])
        var found: [(URL, String)] = []
        while let file = enumerator?.nextObject() as? URL {
            guard mediaExtensions.contains(file.pathExtension.lowercased()),
                  (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
            let relative = String(file.standardizedFileURL.path.dropFirst(folder.path.count + 1))
            let base = (relative as NSString).deletingPathExtension.replacingOccurrences(of: "/", with: "_")
            found.append((file.standardizedFileURL, base))
        }
        return found.sorted { $0.0.path < $1.0.path }
    }
}

/// An input named on the command line that cannot be used.
public struct InputError: CategorizedError {
    public var message: String

    /// An error saying `message`.
    public init(message: String) {
        self.message = message
    }

    public var category: FailureCategory { .invalidInput }
}
