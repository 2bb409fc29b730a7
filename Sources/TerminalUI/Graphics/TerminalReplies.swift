import PhotoBrowser

/// What a terminal answered to the probe's queries, read out of the bytes that came back. Anything
/// that is not a reply (keys typed meanwhile) is kept in order for the app; strings that are neither
/// (garbage, or a reply to nothing asked) are dropped, so none of it reaches the screen or acts as a key.
public struct TerminalReplies: Sendable, Equatable {
    /// XTVERSION's name and version, such as `XTerm(379)` or `kitty(0.26.5)`.
    public var version: String?
    /// Whether the kitty graphics query was answered OK.
    public var kittyGraphics = false
    /// The kitty query's error text, when it was refused.
    public var kittyError: String?
    /// XTSMGRAPHICS: sixel colour registers.
    public var sixelRegisters: Int?
    /// XTSMGRAPHICS: the largest sixel image.
    public var sixelLimit: PixelSize?
    /// `CSI 16t`: one cell in pixels.
    public var cell: PixelSize?
    /// DA1's attributes, such as [63, 1, 2, 4]; nil when DA1 was not answered.
    public var deviceAttributes: [Int]?
    /// Bytes typed during the probe, for the app to read as keys.
    public var typed: [UInt8] = []
    /// Every sequence read, escaped, for `photopick doctor`.
    public var transcript: [String] = []

    /// Nothing answered yet.
    public init() {}

    /// Whether DA1 answered: every terminal does, and it is asked last, so the rest is in.
    public var isComplete: Bool { deviceAttributes != nil }
    /// DA1 attribute 4: the terminal draws sixel.
    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// The replies in `bytes`, read in order; an unfinished sequence at the end is left out.
    public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
        var replies = TerminalReplies()
        var index = 0
        while index < bytes.count {
            guard bytes[index] == 0x1B, index + 1 < bytes.count else {
                if bytes[index] != 0x1B { replies.typed.append(bytes[index]) }
                index += 1
                continue
            }
            switch bytes[index + 1] {
            case UInt8(ascii: "["):
                guard let end = (index + 2..<bytes.count).first(where: { (0x40...0x7E).contains(bytes[$0]) }) else { return replies }
                let sequence = Array(bytes[index...end])
                if !replies.readCSI(body: Array(bytes[(index + 2)..<end]), final: bytes[end]) { replies.typed += sequence }
                else { replies.transcript.append(escaped(sequence)) }
                index = end + 1
            case UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "]"):
                // A string: DCS (XTVERSION), APC (kitty), OSC; ends at ST (ESC \) or, for OSC, BEL.
                var end = index + 2
                var terminator = 0
                while end < bytes.count {
                    if bytes[end] == 0x07 { terminator = 1; break }
                    if bytes[end] == 0x1B, end + 1 < bytes.count, bytes[end + 1] == UInt8(ascii: "\\") { terminator = 2; break }
                    end += 1
                }
                guard terminator > 0 else { return replies }
                let body = Array(bytes[(index + 2)..<end])
                replies.readString(kind: bytes[index + 1], body: body)
                replies.transcript.append(escaped(Array(bytes[index..<(end + terminator)])))
                index = end + terminator
            case UInt8(ascii: "O") where index + 2 < bytes.count:
                // An SS3 key, such as ESC O A from an arrow key in application mode.
                replies.typed += bytes[index...index + 2]
                index += 3
            default:
                // Alt+key: a key press.
                replies.typed += bytes[index...index + 1]
                index += 2
            }
        }
        return replies
    }

    /// Reads a CSI reply; false when it is not one (an arrow key, say).
    private mutating func readCSI(body: [UInt8], final: UInt8) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        switch final {
        case UInt8(ascii: "c") where text.hasPrefix("?"):
            deviceAttributes = text.dropFirst().split(separator: ";").compactMap { Int($0) }
        case UInt8(ascii: "S") where text.hasPrefix("?"):
            let fields = text.dropFirst().split(separator: ";").map { Int($0) }
            guard fields.count >= 3, fields[1] == 0 else { return true }  // an error status: no sixel facts
            if fields[0] == 1, let registers = fields[2], registers > 0 { sixelRegisters = registers }
            if fields[0] == 2, fields.count >= 4, let width = fields[2], let height = fields[3], width > 0, height > 0 {
                sixelLimit = PixelSize(width: width, height: height)
            }
        case UInt8(ascii: "t"):
            let fields = text.split(separator: ";").map { Int($0) }
            guard fields.count == 3, fields[0] == 6, let height = fields[1], let width = fields[2] else { return false }
            if width > 0, height > 0, width < 1000, height < 1000 { cell = PixelSize(width: width, height: height) }
        default:
            return false
        }
        return true
    }

    private mutating func readString(kind: UInt8, body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        switch kind {
        case UInt8(ascii: "P") where text.hasPrefix(">|"):
            version = TerminalText.sanitized(String(text.dropFirst(2).prefix(80)))
        case UInt8(ascii: "_") where text.hasPrefix("G"):
            guard let separator = text.firstIndex(of: ";") else { return }
            let status = text[text.index(after: separator)...]
            if status == "OK" { kittyGraphics = true } else { kittyError = TerminalText.sanitized(String(status.prefix(80))) }
        default:
            break
        }
    }

    /// A sequence with its control bytes written out, safe to print.
    static func escaped(_ bytes: [UInt8]) -> String {
        bytes.map { byte in
            switch byte {
            case 0x1B: "\\e"
            case 0x07: "\\a"
            case 0x20..<0x7F: String(UnicodeScalar(byte))
            default: "\\x" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }.joined()
    }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
