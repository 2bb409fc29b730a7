/// A sixel image cut into strips of whole bands, each a complete image of its own that carries the
/// palette as it stands where the strip begins: written one strip at a time, each at its own cell row,
/// a frame's text can go between strips (never inside one), and the image appears from the top down.
/// Hand-written: libchafa writes one DCS string, and no library cuts one.
enum SixelStrips {
    /// One strip: what makes it an image of its own (the DCS intro, its raster size, the palette and the
    /// colour in use where it begins), then a run of the whole image's bytes, then `terminator`. The run
    /// is a range, so the strips of an image hold its bytes once.
    struct Strip: Equatable, Sendable {
        let head: [UInt8]
        let body: Range<Int>

        /// The strip as it is written, for `image` it was cut from.
        func bytes(of image: [UInt8]) -> [UInt8] { head + image[body] + SixelStrips.terminator }
    }

    /// The string terminator, `ESC \`, that ends each strip.
    static let terminator: [UInt8] = [0x1B, UInt8(ascii: "\\")]

    /// Cuts `image` (one DCS string: `ESC P … q`, data, `ESC \`) after every `bands` bands of six pixel
    /// rows; none when it has no more, or cannot be read, and goes whole.
    static func cut(_ image: [UInt8], bands: Int) -> [Strip] {
        guard bands > 0, let parsed = Parsed(image), parsed.bandStarts.count > bands else { return [] }
        var strips: [Strip] = []
        var index = 0
        while index < parsed.bandStarts.count {
            let last = min(index + bands, parsed.bandStarts.count) - 1
            let start = parsed.bandStarts[index]
            // Up to the newline that ends the strip's last band, or the end of the data.
            let end = last + 1 < parsed.bandStarts.count ? parsed.bandStarts[last + 1] - 1 : parsed.dataEnd
            let height = min(6 * (last - index + 1), max(0, parsed.height - 6 * index))
            var head = parsed.intro
            head += Array("\"1;1;\(parsed.width);\(height)".utf8)
            let state = parsed.states[index]
            for register in state.definitions.keys.sorted() { head += state.definitions[register]! }
            if let current = state.current { head += Array("#\(current)".utf8) }
            strips.append(Strip(head: head, body: start..<end))
            index = last + 1
        }
        return strips
    }

    /// The colours defined, and the one selected, where a band begins.
    struct PaletteState {
        var definitions: [Int: [UInt8]] = [:]
        var current: Int?
    }

    private struct Parsed {
        let bytes: [UInt8]
        /// `ESC P` up to and including `q`.
        let intro: [UInt8]
        let width: Int
        let height: Int
        /// Where each band's data begins, and the palette there.
        var bandStarts: [Int] = []
        var states: [PaletteState] = []
        /// Where the data ends: the `ESC` of the string terminator.
        var dataEnd = 0

        init?(_ bytes: [UInt8]) {
            self.bytes = bytes
            guard bytes.count > 4, bytes[0] == 0x1B, bytes[1] == UInt8(ascii: "P"),
                  let q = bytes.firstIndex(of: UInt8(ascii: "q")) else { return nil }
            intro = Array(bytes[...q])
            var position = q + 1
            var size: (Int, Int)?
            var state = PaletteState()
            func number(_ from: inout Int) -> [Int] {
                var values: [Int] = [], value = 0, digits = false
                while from < bytes.count {
                    let byte = bytes[from]
                    if byte >= 0x30 && byte <= 0x39 {
                        value = value * 10 + Int(byte - 0x30)
                        digits = true
                    } else if byte == UInt8(ascii: ";") {
                        values.append(value)
                        value = 0
                        digits = false
                    } else {
                        break
                    }
                    from += 1
                }
                if digits || !values.isEmpty { values.append(value) }
                return values
            }
            var bandOpen = false
            while position < bytes.count {
                let byte = bytes[position]
                if byte == 0x1B {
                    dataEnd = position
                    break
                }
                if !bandOpen, byte != UInt8(ascii: "\"") {
                    bandStarts.append(position)
                    states.append(state)
                    bandOpen = true
                }
                switch byte {
                case UInt8(ascii: "\""):
                    var from = position + 1
                    let values = number(&from)
                    if values.count >= 4 { size = (values[2], values[3]) }
                    position = from
                    continue
                case UInt8(ascii: "#"):
                    var from = position + 1
                    let values = number(&from)
                    guard let register = values.first else { return nil }
                    if values.count > 1 { state.definitions[register] = Array(bytes[position..<from]) }
                    state.current = register
                    position = from
                    continue
                case UInt8(ascii: "-"):
                    bandOpen = false
                default:
                    break
                }
                position += 1
            }
            guard dataEnd > 0, let size else { return nil }
            (width, height) = size
        }
    }
}
