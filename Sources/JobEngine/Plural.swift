/// A count with its noun, singular only for one: `1 file`, `0 files`, `3 files`.
package enum Plural {
    /// `count` and `noun`, or `plural` (default: `noun` + `s`) unless `count` is one.
    package static func of(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }
}
