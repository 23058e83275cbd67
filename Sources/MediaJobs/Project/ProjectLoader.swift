import Foundation
import PhotoJobs

/// Reads and checks a project folder's `project.json`.
public enum ProjectLoader {
    /// The manifest's file name inside a project folder.
    public static let manifestName = "project.json"

    /// Loads the project at `folder`, from its `project.json` or from `file` when given.
    /// - Throws: ``ManifestError`` naming the field, for a missing, unreadable, malformed or
    ///   invalid manifest.
    public static func load(_ folder: URL, manifest file: URL? = nil) throws -> ProjectManifest {
        let file = file ?? folder.appendingPathComponent(manifestName)
        return try decode(try contents(of: file, in: folder), file: file.path, folder: folder)
    }

    /// The project folder and manifest a person means by `path`: a folder (its `project.json`),
    /// or a manifest file itself (`…/project.json`, or any other `.json` file), whose folder is
    /// the project's.
    public static func locate(_ path: URL) -> (folder: URL, manifest: URL) {
        var isFolder: ObjCBool = false
        if path.pathExtension.lowercased() == "json", FileManager.default.fileExists(atPath: path.path, isDirectory: &isFolder),
           !isFolder.boolValue {
            return (path.deletingLastPathComponent(), path)
        }
        return (path, path.appendingPathComponent(manifestName))
    }

    /// Decodes and validates manifest text read from `file` in the project `folder`.
    /// - Throws: ``ManifestError`` naming the field, for malformed or invalid text.
    /// Package access: the manifest fuzzer (`Fuzz/ManifestFuzzer`) drives it.
    package static func decode(_ data: Data, file: String, folder: URL) throws -> ProjectManifest {
        let manifest: ProjectManifest
        do {
            manifest = try JSONDecoder().decode(ProjectManifest.self, from: data)
        } catch let error as DecodingError {
            // "Not valid JSON" without a field: a syntax mistake (named by line and column), or a
            // number that does not fit its type (named by its field).
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty {
                if let mistake = JSONSyntax.firstMistake(in: data) {
                    throw ManifestError(file: file, field: "", problem: "is not valid JSON at \(mistake)")
                }
                if let misfit = misfitNumber(in: data, file: file) { throw misfit }
            }
            throw manifestError(error, file: file)
        }
        try ManifestValidator(file: file, folder: folder).validate(manifest)
        return manifest
    }

    /// Turns a decoding error into one that names the field as `assets[2].edits.rotate`.
    static func manifestError(_ error: DecodingError, file: String) -> ManifestError {
        func field(_ path: [any CodingKey]) -> String {
            path.reduce("") { text, key in
                if let index = key.intValue { return text + "[\(index)]" }
                return text.isEmpty ? key.stringValue : text + "." + key.stringValue
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return ManifestError(file: file, field: field(context.codingPath), problem: "expected \(describe(type))")
        case .valueNotFound(let type, let context):
            return ManifestError(file: file, field: field(context.codingPath), problem: "expected \(describe(type)), found null")
        case .keyNotFound(let key, let context):
            return ManifestError(file: file, field: field(context.codingPath + [key]), problem: "is required")
        case .dataCorrupted(let context):
            let underlying = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String
            let problem = context.codingPath.isEmpty ? "is not valid JSON\(underlying.map { ": \($0)" } ?? "")" : context.debugDescription
            return ManifestError(file: file, field: field(context.codingPath), problem: problem)
        @unknown default:
            return ManifestError(file: file, field: "", problem: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: type is any Collection.Type && !(type is any KeyedCollection.Type) ? "a list" : "an object"
        }
    }
}

/// A collection that a JSON object decodes into, told apart from a list in errors.
private protocol KeyedCollection {}
extension Dictionary: KeyedCollection {}
