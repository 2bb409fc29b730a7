/// One word of a typed query, with where it sits in the text so the prompt can colour it.
package struct QueryToken: Sendable, Equatable {
    /// The word as typed, quotes removed.
    package let text: String
    /// Its first character's offset in the query, in characters.
    package let offset: Int
    /// Its length in the query, in characters, quotes included.
    package let length: Int
    /// Whether it starts with a quote, which makes it free text whatever it holds (`camera:"om digital"`
    /// is a term with a quoted value; `"12:30"` is text).
    let isQuoted: Bool

    /// Splits on blanks; double quotes group blanks into one word (`#"To edit"`, `"12:30"`). An
    /// unclosed quote runs to the end. Every input gives tokens; none is an error here.
    static func split(_ query: String) -> [QueryToken] {
        var tokens: [QueryToken] = []
        var current = ""
        var start = 0
        var length = 0
        var inQuotes = false
        var wasQuoted = false
        func finish() {
            if length > 0 { tokens.append(QueryToken(text: current, offset: start, length: length, isQuoted: wasQuoted)) }
            current = ""
            length = 0
            wasQuoted = false
        }
        for (offset, character) in query.enumerated() {
            if character == "\"" {
                if length == 0 {
                    start = offset
                    wasQuoted = true
                }
                inQuotes.toggle()
                length += 1
            } else if character.isWhitespace && !inQuotes {
                finish()
            } else {
                if length == 0 { start = offset }
                current.append(character)
                length += 1
            }
        }
        finish()
        return tokens
    }
}
