import PhotoPickSettings

/// A one-line text input with a cursor at the end: what `/`, the tag picker and prompts type into.
struct TextField: Sendable, Equatable {
    private(set) var text: String

    init(_ text: String = "") {
        self.text = text
    }

    /// Types pasted text at the end; returns whether the text changed.
    mutating func insert(_ pasted: String) -> Bool {
        guard !pasted.isEmpty else { return false }
        text += pasted
        return true
    }

    /// Applies an editing key; returns whether the text changed. Printable characters are typed,
    /// Backspace deletes a character, Ctrl-W a word, Ctrl-U everything.
    mutating func edit(_ key: Key) -> Bool {
        switch key {
        case .character(let character) where !character.isNewline:
            text.append(character)
        case .backspace:
            guard !text.isEmpty else { return false }
            text.removeLast()
        case .control("w"):
            guard !text.isEmpty else { return false }
            while text.last == " " { text.removeLast() }
            while let last = text.last, last != " " { _ = last; text.removeLast() }
        case .control("u"):
            guard !text.isEmpty else { return false }
            text = ""
        default:
            return false
        }
        return true
    }
}
