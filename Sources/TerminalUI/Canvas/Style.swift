/// A colour as the terminal knows it: its default, or an index into its palette (0–255).
public enum TerminalColor: Sendable, Hashable {
    case terminalDefault
    case palette(UInt8)
}

/// How a cell looks: colours and attributes.
public struct Style: Sendable, Hashable {
    public struct Attributes: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let bold = Attributes(rawValue: 1 << 0)
        public static let reverse = Attributes(rawValue: 1 << 1)
        public static let underline = Attributes(rawValue: 1 << 2)
        public static let dim = Attributes(rawValue: 1 << 3)
    }

    public var foreground: TerminalColor
    public var background: TerminalColor
    public var attributes: Attributes

    public init(foreground: TerminalColor = .terminalDefault, background: TerminalColor = .terminalDefault, attributes: Attributes = []) {
        self.foreground = foreground
        self.background = background
        self.attributes = attributes
    }

    /// The terminal's own colours, no attributes.
    public static let plain = Style()

    /// This style on another background.
    public func on(_ background: TerminalColor) -> Style {
        var style = self
        style.background = background
        return style
    }
}
