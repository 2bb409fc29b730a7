/// A tag's colour as red, green and blue, parsed from the server's `#rrggbb` (or `#rgb`).
public struct TagColor: Sendable, Hashable {
    /// Red, 0...255.
    public let red: UInt8
    /// Green, 0...255.
    public let green: UInt8
    /// Blue, 0...255.
    public let blue: UInt8

    /// A colour from its red, green and blue parts.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Nil for anything but `#rgb` or `#rrggbb`.
    public init?(hex: String) {
        var digits = Substring(hex)
        if digits.hasPrefix("#") { digits = digits.dropFirst() }
        if digits.count == 3 { digits = Substring(digits.map { "\($0)\($0)" }.joined()) }
        guard digits.count == 6, let value = UInt32(digits, radix: 16) else { return nil }
        red = UInt8(value >> 16 & 0xFF)
        green = UInt8(value >> 8 & 0xFF)
        blue = UInt8(value & 0xFF)
    }

    /// `#rrggbb`, as the server writes it.
    public var hex: String {
        "#" + [red, green, blue].map { value in
            let text = String(value, radix: 16)
            return text.count == 1 ? "0" + text : text
        }.joined()
    }
}
