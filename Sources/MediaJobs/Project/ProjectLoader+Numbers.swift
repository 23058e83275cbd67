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
            // Plain loops: `lazy.compactMap { … }.first` runs its closure twice for the element it
            // returns, which made this search take 2^depth steps (30 nested lists: minutes).
            case let object as [String: Any]:
                for key in object.keys.sorted() {
                    if let found = search(object[key]!, field.isEmpty ? key : "\(field).\(key)", key: key) { return found }
                }
                return nil
            case let array as [Any]:
                for (index, element) in array.enumerated() {
                    if let found = search(element, "\(field)[\(index)]", key: nil) { return found }
                }
                return nil
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
