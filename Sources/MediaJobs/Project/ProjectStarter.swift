import FFmpeg
import Foundation
import MediaInputLimits
import PhotoJobs
import Vips

/// Starts a project from a folder of media (`mediajob init`): finds the photos and videos in it
/// by their content, and writes a `project.json` that exports them with the default settings.
public enum ProjectStarter {
    /// What a folder holds.
    public struct Survey: Sendable {
        /// Photos and videos, as paths inside the folder, sorted.
        public var assets: [String] = []
        /// How many of ``assets`` are photos and how many videos.
        public var photos = 0, videos = 0
        /// Files left out, as paths inside the folder, with why.
        public var leftOut: [(path: String, reason: String)] = []
    }

    /// Looks at every file under `folder` (hidden ones and `project.json` aside), in path order,
    /// and tells photos and videos from everything else by what the media libraries make of
    /// their content; a file that cannot be read, or that leads outside the folder, is left out.
    public static func survey(_ folder: URL) throws -> Survey {
        try MediaLibraries.initialize()
        let manifest = folder.appendingPathComponent(ProjectLoader.manifestName).path
        var survey = Survey()
        for path in try files(in: folder) {
            do {
                _ = try ProjectPaths.resolve(path, in: folder, field: "assets[].path", manifest: manifest)
                switch try AssetProbe.classify(folder.appendingPathComponent(path).path, limits: MediaLimits(),
                                               imageLimits: ImageLimits(), scanKeyframes: false) {
                case .image: survey.photos += 1
                case .video: survey.videos += 1
                }
                survey.assets.append(path)
            } catch let error as ManifestError {
                survey.leftOut.append((path, error.problem))
            } catch {
                survey.leftOut.append((path, error.personMessage))
            }
        }
        return survey
    }

    /// A `project.json` named `name` listing `assets` (paths inside the project) with no edits,
    /// and the default export block: JPEG photos, H.264 videos, audio copied, a zip called after
    /// the project. Outputs are named after their files, told apart by extension and folder
    /// where two would share a name.
    public static func manifest(name: String, assets: [String]) -> String {
        let outputs = outputNames(assets)
        let lines = zip(assets, outputs).map { path, output in
            output == ProjectManifest.Asset.defaultOutput(for: path)
                ? "    {\"path\": \(quoted(path))}"
                : "    {\"path\": \(quoted(path)), \"output\": \(quoted(output))}"
        }
        let package = String(name.drop { $0 == "." }).replacingOccurrences(of: "/", with: "-")
        return """
            {
              "version": 1,
              "name": \(quoted(name)),
              "assets": [
            \(lines.joined(separator: ",\n"))
              ],
              "export": {
                "image": {"format": "jpeg", "quality": 85},
                "video": {"codec": "h264", "crf": 23, "preset": "veryfast"},
                "audio": "copy",
                "package": {"format": "zip", "name": \(quoted((package.isEmpty ? "project" : package) + ".zip"))}
              }
            }

            """
    }

    /// Every regular file (or link) under `folder`, hidden ones and the manifest aside, as paths
    /// inside it, sorted.
    private static func files(in folder: URL) throws -> [String] {
        let base = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey],
                                                          options: [.skipsHiddenFiles]) else { return [] }
        var paths: [String] = []
        for case let url as URL in walker {
            if (try? url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) == true { continue }
            let path = String(url.standardizedFileURL.path.dropFirst(base.count + (base.hasSuffix("/") ? 0 : 1)))
            if path != ProjectLoader.manifestName { paths.append(path) }
        }
        return paths.sorted()
    }

    /// Each file's own name without extension where that is unique (ignoring case), else its
    /// path with `-` for `/` and `.` (`trip/p3.jpg` → `trip-p3-jpg`).
    private static func outputNames(_ paths: [String]) -> [String] {
        let plain = paths.map(ProjectManifest.Asset.defaultOutput(for:))
        let counts = Dictionary(plain.map { ($0.lowercased(), 1) }, uniquingKeysWith: +)
        var taken: Set<String> = []
        return zip(paths, plain).map { path, name in
            var output = counts[name.lowercased()] == 1 && !name.hasPrefix(".") && !name.isEmpty
                ? name : path.replacingOccurrences(of: "/", with: "-").replacingOccurrences(of: ".", with: "-")
            let stem = output
            var suffix = 2
            while taken.contains(output.lowercased()) {
                output = "\(stem)-\(suffix)"
                suffix += 1
            }
            taken.insert(output.lowercased())
            return output
        }
    }

    private static func quoted(_ text: String) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }
}
