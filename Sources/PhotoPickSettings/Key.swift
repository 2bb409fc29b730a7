/// A key the user pressed, independent of how the terminal encoded it.
public enum Key: Sendable, Hashable {
    case character(Character)
    /// Ctrl with a letter: `.control("d")` for Ctrl-D.
    case control(Character)
    /// Alt (or Meta) with a character: the terminal sends Esc and the character at once.
    case alt(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    case enter, escape, backspace, delete, tab, backTab
    case function(Int)

    /// The key's name as config files and the help screen write it: `j`, `G`, `ctrl-d`, `pgdn`, `space`.
    public var name: String {
        switch self {
        case .character(" "): "space"
        case .character(let character): String(character)
        case .control(let letter): "ctrl-\(letter)"
        case .alt(let character): "alt-\(character)"
        case .up: "up"
        case .down: "down"
        case .left: "left"
        case .right: "right"
        case .pageUp: "pgup"
        case .pageDown: "pgdn"
        case .home: "home"
        case .end: "end"
        case .enter: "enter"
        case .escape: "esc"
        case .backspace: "backspace"
        case .delete: "delete"
        case .tab: "tab"
        case .backTab: "shift-tab"
        case .function(let number): "f\(number)"
        }
    }

    /// The key as hints and help show it: the name, but function keys as `F5`.
    package var label: String {
        if case .function(let number) = self { return "F\(number)" }
        return name
    }

    /// Parses a key name; `nil` when it names no key.
    public init?(name: String) {
        let lowered = name.lowercased()
        if name.count == 1, let character = name.first, !character.isWhitespace, !character.isNewline {
            self = .character(character)
            return
        }
        if lowered.hasPrefix("ctrl-") || lowered.hasPrefix("c-") {
            let rest = lowered.drop { $0 != "-" }.dropFirst()
            guard rest.count == 1, let letter = rest.first, letter.isASCII, letter.isLetter else { return nil }
            self = .control(letter)
            return
        }
        if lowered.hasPrefix("alt-") || lowered.hasPrefix("m-") {
            let rest = name.drop { $0 != "-" }.dropFirst()
            guard rest.count == 1, let character = rest.first, !character.isWhitespace, !character.isNewline else { return nil }
            self = .alt(character)
            return
        }
        if lowered.count >= 2, lowered.first == "f", let number = Int(lowered.dropFirst()), (1...24).contains(number) {
            self = .function(number)
            return
        }
        let named: [String: Key] = [
            "space": .character(" "), "up": .up, "down": .down, "left": .left, "right": .right,
            "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown, "home": .home, "end": .end,
            "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "backspace": .backspace,
            "delete": .delete, "del": .delete, "tab": .tab, "shift-tab": .backTab, "backtab": .backTab,
        ]
        guard let key = named[lowered] else { return nil }
        self = key
    }
}
