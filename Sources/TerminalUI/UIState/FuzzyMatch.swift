import Foundation

/// Fuzzy matching for pickers: every character of the query appears in order, ignoring case and
/// diacritics. Prefix and contiguous matches score higher, so `fav` ranks "Favourite" above "Flower of a valley".
enum FuzzyMatch {
    /// A score, higher is better, or `nil` when `candidate` does not match.
    static func score(_ query: String, in candidate: String) -> Int? {
        let query = Array(fold(query).filter { !$0.isWhitespace })
        guard !query.isEmpty else { return 0 }
        let target = Array(fold(candidate))
        var score = 0, position = 0, previous = -2
        for character in query {
            guard let found = target[position...].firstIndex(of: character) else { return nil }
            score += found == previous + 1 ? 8 : 1
            if found == 0 { score += 12 } else if found > 0, !target[found - 1].isLetter { score += 6 }
            previous = found
            position = found + 1
        }
        return score * 100 - target.count
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }
}
