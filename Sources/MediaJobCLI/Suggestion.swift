/// "Did you mean …?" for a misspelt command or option name.
package enum Suggestion {
    /// The candidate nearest to `word`, if one is close enough to be what was meant: at most two
    /// edits away (an adjacent swap counts as one), and fewer edits than half the word's length.
    package static func nearest(to word: String, in candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(word, $0)) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2, best.1 * 2 < max(word.count, 2) else { return nil }
        return best.0
    }

    /// ` Did you mean 'x'?` for `word` among `candidates`, or nothing.
    package static func didYouMean(_ word: String, in candidates: [String], prefix: String = "") -> String {
        nearest(to: word, in: candidates).map { "; did you mean '\(prefix)\($0)'?" } ?? ""
    }

    /// Edits (insert, delete, replace, swap two neighbours) that turn `a` into `b`.
    package static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
