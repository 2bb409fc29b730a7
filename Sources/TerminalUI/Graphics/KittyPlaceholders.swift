import PhotoBrowser
import PhotoImaging

/// kitty's Unicode placeholders: an image shown through text, so a multiplexer such as tmux moves,
/// clips and removes it like text. Each cell under the image is U+10EEEE with two combining marks, the
/// cell's row and column, and a third for the image id's high byte; the foreground colour is the id's
/// low bits. The terminal shows the image placed virtually with `U=1` where those cells are.
enum KittyPlaceholders {
    /// The placeholder character.
    static let character: UInt32 = 0x10EEEE

    /// The combining marks that number rows and columns, 0 first: kitty's list (class 230 marks of
    /// Unicode 6.0 without decompositions), from its `rowcolumn-diacritics.txt`.
    static let diacritics: [UInt32] = ranges.flatMap { Array($0) }

    private static let ranges: [ClosedRange<UInt32>] = [
        0x305...0x305, 0x30D...0x30E, 0x310...0x310, 0x312...0x312, 0x33D...0x33F, 0x346...0x346, 0x34A...0x34C,
        0x350...0x352, 0x357...0x357, 0x35B...0x35B, 0x363...0x36F, 0x483...0x487, 0x592...0x595, 0x597...0x599,
        0x59C...0x5A1, 0x5A8...0x5A9, 0x5AB...0x5AC, 0x5AF...0x5AF, 0x5C4...0x5C4, 0x610...0x617, 0x657...0x65B,
        0x65D...0x65E, 0x6D6...0x6DC, 0x6DF...0x6E2, 0x6E4...0x6E4, 0x6E7...0x6E8, 0x6EB...0x6EC, 0x730...0x730,
        0x732...0x733, 0x735...0x736, 0x73A...0x73A, 0x73D...0x73D, 0x73F...0x741, 0x743...0x743, 0x745...0x745,
        0x747...0x747, 0x749...0x74A, 0x7EB...0x7F1, 0x7F3...0x7F3, 0x816...0x819, 0x81B...0x823, 0x825...0x827,
        0x829...0x82D, 0x951...0x951, 0x953...0x954, 0xF82...0xF83, 0xF86...0xF87, 0x135D...0x135F, 0x17DD...0x17DD,
        0x193A...0x193A, 0x1A17...0x1A17, 0x1A75...0x1A7C, 0x1B6B...0x1B6B, 0x1B6D...0x1B73, 0x1CD0...0x1CD2,
        0x1CDA...0x1CDB, 0x1CE0...0x1CE0, 0x1DC0...0x1DC1, 0x1DC3...0x1DC9, 0x1DCB...0x1DCC, 0x1DD1...0x1DE6,
        0x1DFE...0x1DFE, 0x20D0...0x20D1, 0x20D4...0x20D7, 0x20DB...0x20DC, 0x20E1...0x20E1, 0x20E7...0x20E7,
        0x20E9...0x20E9, 0x20F0...0x20F0, 0x2CEF...0x2CF1, 0x2DE0...0x2DFF, 0xA66F...0xA66F, 0xA67C...0xA67D,
        0xA6F0...0xA6F1, 0xA8E0...0xA8F1, 0xAAB0...0xAAB0, 0xAAB2...0xAAB3, 0xAAB7...0xAAB8, 0xAABE...0xAABF,
        0xAAC1...0xAAC1, 0xFE20...0xFE26, 0x10A0F...0x10A0F, 0x10A38...0x10A38, 0x1D185...0x1D189, 0x1D1AA...0x1D1AD,
        0x1D242...0x1D244
    ]

    /// The text of the cell at `row`, `column` of image `id`: the placeholder and its marks.
    static func cell(row: Int, column: Int, id: UInt32) -> String {
        var text = String.UnicodeScalarView()
        for value in [character, diacritics[row], diacritics[column], diacritics[Int(id >> 24)]] {
            text.append(Unicode.Scalar(value)!)
        }
        return String(text)
    }

    /// An image id the cells can carry: the low 24 bits in 24-bit colour or 8 in 256 (never 0), and
    /// a high byte in the third mark. Stable for a photo at a size, so the view draws the cells
    /// without asking the driver.
    static func id(photoID: Int, box: PixelSize, content: Int = 0, colors: Theme.Depth) -> UInt32 {
        var hash: UInt64 = 0xcbf29ce484222325
        let parts = [UInt64(truncatingIfNeeded: photoID), UInt64(box.width), UInt64(box.height)] + (content == 0 ? [] : [UInt64(truncatingIfNeeded: content)])
        for value in parts {
            hash = (hash ^ value) &* 0x100000001b3
        }
        let high = UInt32(hash >> 56)
        // In 24-bit colour the low bits are at least 256: the driver sends smaller values as palette indices.
        let low = colors == .direct ? max(0x100, UInt32(truncatingIfNeeded: hash) & 0xFFFFFF) : max(1, UInt32(truncatingIfNeeded: hash) & 0xFF)
        return high << 24 | low
    }

    /// The foreground that carries the id's low bits.
    static func color(of id: UInt32, colors: Theme.Depth) -> TerminalColor {
        let low = id & 0xFFFFFF
        return colors == .direct ? .rgb(UInt8(low >> 16 & 255), UInt8(low >> 8 & 255), UInt8(low & 255)) : .palette(UInt8(low & 255))
    }
}
