import Foundation
import PhotoBrowser
import PhotoImaging

/// What a terminal answered to the probe's queries, read out of the bytes that came back by the same
/// decoder that reads keys. The bytes themselves go on to the app's decoder, so keys typed meanwhile
/// are kept in order and a reply the deadline cut in two is still read whole, never as keys.
public struct TerminalReplies: Sendable, Equatable {
    /// XTVERSION's name and version, such as `XTerm(379)` or `kitty(0.26.5)`.
    public var version: String?
    /// Whether the kitty graphics query was answered OK.
    public var kittyGraphics = false
    /// Whether the terminal read a 1×1 image from this machine's shared memory: it runs here.
    public var kittySharedMemory = false
    /// The kitty query's error text, when it was refused.
    public var kittyError: String?
    /// XTSMGRAPHICS: sixel colour registers.
    public var sixelRegisters: Int?
    /// XTSMGRAPHICS: the largest sixel image.
    public var sixelLimit: PixelSize?
    /// `CSI 16t`: one cell in pixels.
    public var cell: PixelSize?
    /// OSC 11: the terminal's default background, which picks the light or dark theme when the config
    /// names none.
    public var background: BackgroundColor?
    /// DA1's attributes, such as [63, 1, 2, 4]; nil when DA1 was not answered.
    public var deviceAttributes: [Int]?
    /// Every byte the probe read, keys typed meanwhile and a reply cut off by the deadline included:
    /// the app's input decoder reads them first.
    public var received: [UInt8] = []
    /// Every sequence read, escaped, for `photopick doctor`.
    public var transcript: [String] = []

    /// Nothing answered yet.
    public init() {}

    /// Whether DA1 answered: every terminal does, and it is asked last, so the rest is in.
    public var isComplete: Bool { deviceAttributes != nil }
    /// DA1 attribute 4: the terminal draws sixel.
    public var sixel: Bool { deviceAttributes?.contains(4) ?? false }

    /// The replies in `bytes`, read in order by the input decoder; keys typed meanwhile and an
    /// unfinished sequence at the end are left for the app's decoder, which gets `received` whole.
    public static func parse(_ bytes: [UInt8]) -> TerminalReplies {
        var replies = TerminalReplies()
        replies.received = bytes
        var decoder = InputDecoder()
        for case .reply(let sequence) in decoder.feed(bytes, at: .zero) { replies.read(sequence) }
        return replies
    }

    /// Reads one whole reply, as the decoder found it: a CSI sequence, or a string ended by ST or BEL.
    mutating func read(_ sequence: [UInt8]) {
        guard sequence.count >= 3 else { return }
        let kind = sequence[1]
        if kind == UInt8(ascii: "[") {
            guard readCSI(body: Array(sequence[2..<(sequence.count - 1)]), final: sequence[sequence.count - 1]) else { return }
        } else {
            let terminator = sequence.last == 0x07 ? 1 : 2
            guard sequence.count >= 2 + terminator else { return }
            readString(kind: kind, body: Array(sequence[2..<(sequence.count - terminator)]))
        }
        transcript.append(Self.escaped(sequence))
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
        case UInt8(ascii: "]") where text.hasPrefix("11;"):
            background = BackgroundColor(xparse: text.dropFirst(3))
        case UInt8(ascii: "_") where text.hasPrefix("G"):
            guard let separator = text.firstIndex(of: ";") else { return }
            let status = text[text.index(after: separator)...]
            // Id 32 is the shared memory query: its error only says the terminal is elsewhere.
            if text.hasPrefix("Gi=32;") || text.hasPrefix("Gi=32,") {
                kittySharedMemory = status == "OK"
            } else if status == "OK" {
                kittyGraphics = true
            } else {
                kittyError = TerminalText.sanitized(String(status.prefix(80)))
            }
        default:
            break
        }
    }

    /// Whether a whole reply is DA1's answer, `CSI ? … c`.
    static func isDeviceAttributes(_ sequence: [UInt8]) -> Bool {
        sequence.count >= 4 && sequence[0] == 0x1B && sequence[1] == UInt8(ascii: "[") && sequence[2] == UInt8(ascii: "?")
            && sequence.last == UInt8(ascii: "c")
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

/// A terminal's default background as OSC 11 reports it (`rgb:RRRR/GGGG/BBBB`, 1 to 4 hex digits a
/// channel), each channel from 0 to 1.
public struct BackgroundColor: Sendable, Equatable, CustomStringConvertible {
    /// The channels, each from 0 to 1.
    public let red: Double, green: Double, blue: Double

    /// A colour of these channels.
    public init(red: Double, green: Double, blue: Double) {
        (self.red, self.green, self.blue) = (red, green, blue)
    }

    init?(xparse text: Substring) {
        guard text.hasPrefix("rgb:") else { return nil }
        let channels = text.dropFirst(4).split(separator: "/", omittingEmptySubsequences: false)
        guard channels.count == 3 else { return nil }
        var values: [Double] = []
        for channel in channels {
            guard (1...4).contains(channel.count), let value = UInt16(channel, radix: 16) else { return nil }
            values.append(Double(value) / Double((1 << (4 * channel.count)) - 1))
        }
        (red, green, blue) = (values[0], values[1], values[2])
    }

    /// WCAG's relative luminance.
    public var luminance: Double {
        func linear(_ value: Double) -> Double { value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4) }
        return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue)
    }

    /// Light enough that dark text reads better on it than light text: black's contrast with it passes
    /// white's (at a luminance of about 0.18).
    public var isLight: Bool { (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05) }

    /// `#rrggbb`.
    public var description: String {
        func hex(_ value: Double) -> String { String(Int((value * 255).rounded()), radix: 16).leftPadded(to: 2) }
        return "#" + hex(red) + hex(green) + hex(blue)
    }
}
