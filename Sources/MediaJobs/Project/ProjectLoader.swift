import Foundation

/// Reads and checks a project folder's `project.json`.
public enum ProjectLoader {
    /// The manifest's file name inside a project folder.
    public static let manifestName = "project.json"

    /// Loads the project at `folder`.
    /// - Throws: ``ManifestError`` naming the field, for a missing, unreadable, malformed or
    ///   invalid manifest.
    public static func load(_ folder: URL) throws -> ProjectManifest {
        let file = folder.appendingPathComponent(manifestName)
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let problem = FileManager.default.fileExists(atPath: folder.path)
                ? "cannot be read; a project folder holds a \(manifestName) (see the README for the format)"
                : "the project folder does not exist"
            throw ManifestError(file: file.path, field: "", problem: problem)
        }
        let manifest: ProjectManifest
        do {
            manifest = try JSONDecoder().decode(ProjectManifest.self, from: data)
        } catch let error as DecodingError {
            throw hugeNumber(in: data, file: file.path) ?? manifestError(error, file: file.path)
        }
        try ManifestValidator(file: file.path, folder: folder).validate(manifest)
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

    /// Foundation's decoder calls valid JSON holding a number too large for its type "not valid
    /// JSON" without saying where; this finds such a number so that the error can name its field.
    static func hugeNumber(in data: Data, file: String) -> ManifestError? {
        guard let tree = try? JSONSerialization.jsonObject(with: data) else { return nil }
        func search(_ value: Any, _ field: String) -> String? {
            switch value {
            case let object as [String: Any]:
                return object.keys.sorted().lazy.compactMap { search(object[$0]!, field.isEmpty ? $0 : "\(field).\($0)") }.first
            case let array as [Any]:
                return array.indices.lazy.compactMap { search(array[$0], "\(field)[\($0)]") }.first
            case let number as NSNumber:
                let value = number.doubleValue
                return !value.isFinite || abs(value) >= 9.2e18 ? field : nil
            default:
                return nil
            }
        }
        return search(tree, "").map { ManifestError(file: file, field: $0, problem: "the number is far too large") }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: "a whole number"
        case is Double.Type: "a number"
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        default: type is any Collection.Type ? "a list" : "an object"
        }
    }
}
