/// A colour as the terminal knows it: its default, or an index into its palette (0–255).
enum TerminalColor: Sendable, Hashable {
    case terminalDefault
    case palette(UInt8)
}

/// How a cell looks: colours and attributes.
struct Style: Sendable, Hashable {
    struct Attributes: OptionSet, Sendable, Hashable {
        let rawValue: UInt8
        init(rawValue: UInt8) { self.rawValue = rawValue }
        static let bold = Attributes(rawValue: 1 << 0)
        static let reverse = Attributes(rawValue: 1 << 1)
        static let underline = Attributes(rawValue: 1 << 2)
        static let dim = Attributes(rawValue: 1 << 3)
    }

    var foreground: TerminalColor
    var background: TerminalColor
    var attributes: Attributes

    init(foreground: TerminalColor = .terminalDefault, background: TerminalColor = .terminalDefault, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's own colours, no attributes.
    static let plain = Style()

    /// This style on another background.
    func on(_ background: TerminalColor) -> Style {
        var style = self
        style.background = background
        return style
    }
}
