import Foundation

/// JSON for files a job publishes (manifests, reports, indexes): pretty, keys sorted, so equal
/// content always gives equal bytes.
package enum StableJSON {
    package static func encode<Value: Encodable>(_ value: Value) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }
}
