/// "Did you mean" suggestions: the candidates nearest to a mistyped name.
public enum Suggestions {
    static let maximumQueryLength = 64

    public static func closest(to query: String, among candidates: [String], limit: Int = 3) -> [String] {
        // No name is longer than 64 letters: a longer query is no typo of one, and the edit distance would cost
        // its length times each candidate's (a 100,000-letter name took 40 s).
        guard query.utf8.count <= maximumQueryLength else { return [] }
        let needle = normalized(query)
        guard !needle.isEmpty else { return [] }
        let scored = candidates.map { candidate -> (String, Int) in
            let hay = normalized(candidate)
            if hay == needle { return (candidate, 0) }
            // Containment needs a few letters: many names contain "x" or "a".
            let longEnough = min(needle.count, hay.count) >= 3
            if longEnough, hay.contains(needle) || needle.contains(hay) { return (candidate, 1) }
            var distance = editDistance(needle, hay)
            // A mistyped start of a name ("gausian" for CIGaussianBlur): compare with the name's first letters.
            if needle.count >= 4 {
                for length in needle.count - 1...needle.count + 1 where length < hay.count {
                    distance = min(distance, editDistance(needle, Array(hay.prefix(length))))
                }
            }
            return (candidate, 2 + distance)
        }
        // Accept edits up to about a third of the name, so "sepai" finds CISepiaTone but "x" finds nothing.
        let limitDistance = 2 + max(1, needle.count / 3)
        return scored.filter { $0.1 <= limitDistance }
            .sorted { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .prefix(limit).map(\.0)
    }

    /// Lowercased, without the `ci` prefix Core Image puts on every name.
    static func normalized(_ name: String) -> [Character] {
        var lower = name.lowercased()
        if lower.hasPrefix("ci") { lower.removeFirst(2) }
        return Array(lower)
    }

    /// Edits (insert, delete, substitute, swap two neighbours) that turn `a` into `b`.
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = Array(0...b.count)
        var previous = beforePrevious
        var current = previous
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
