/// A colour as the terminal knows it: its default, an index into its palette (0–255), or 24-bit RGB
/// (previews in a terminal that shows it).
enum TerminalColor: Sendable, Hashable {
    case terminalDefault
    case palette(UInt8)
    case rgb(UInt8, UInt8, UInt8)
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

    /// Under an image's pixels: a space that ncurses does not count as blank, so it never erases a run
    /// of such cells (EL, EL1 or ECH) along with its neighbours, which would take the pixels with them.
    static let imageUnderlay = Style(attributes: [.dim])

    /// This style on another background.
    func on(_ background: TerminalColor) -> Style {
        var style = self
        style.background = background
        return style
    }
}
