import Foundation

extension ProjectLoader {
    /// The keys whose values are whole numbers, wherever they appear in a manifest.
    static let wholeNumberKeys: Set<String> = [
        "version", "rotate", "max_width", "max_height", "x", "y", "width", "height", "quality", "crf", "bitrate",
    ]

    /// Foundation's decoder calls valid JSON holding a number that does not fit its type (too
    /// large, or a fraction where a whole number belongs) "not valid JSON", without saying where;
    /// this finds such a number so that the error can name its field.
    static func misfitNumber(in data: Data, file: String) -> ManifestError? {
        guard let tree = try? JSONSerialization.jsonObject(with: data) else { return nil }
        func search(_ value: Any, _ field: String, key: String?) -> ManifestError? {
            switch value {
            case let object as [String: Any]:
                return object.keys.sorted().lazy
                    .compactMap { search(object[$0]!, field.isEmpty ? $0 : "\(field).\($0)", key: $0) }.first
            case let array as [Any]:
                return array.indices.lazy.compactMap { search(array[$0], "\(field)[\($0)]", key: nil) }.first
            case let number as NSNumber:
                let value = number.doubleValue
                if !value.isFinite || abs(value) >= 9.2e18 {
                    return ManifestError(file: file, field: field, problem: "the number is far too large")
                }
                if let key, wholeNumberKeys.contains(key), value.rounded() != value {
                    return ManifestError(file: file, field: field, problem: "expected a whole number, got \(number)")
                }
                return nil
            default:
                return nil
            }
        }
        return search(tree, "", key: nil)
    }
}
