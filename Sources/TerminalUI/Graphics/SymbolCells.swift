import PhotoBrowser
import PhotoImaging
import PhotoPreviews

/// A preview as cells of symbols: each a character with a foreground and background, as libchafa
/// chose them. The view copies them into the canvas, so previews stay readable as text in tests.
struct SymbolCells: PreviewRendering, Equatable {
    let columns: Int
    let rows: Int
    /// Whether the colours are palette indices; otherwise packed 0xRRGGBB. -1 is the terminal's default.
    let indexed: Bool
    var characters: [UInt32]
    var foreground: [Int32]
    var background: [Int32]

    init(columns: Int, rows: Int, indexed: Bool) {
        self.columns = columns
        self.rows = rows
        self.indexed = indexed
        characters = Array(repeating: 0x20, count: columns * rows)
        foreground = Array(repeating: -1, count: columns * rows)
        background = Array(repeating: -1, count: columns * rows)
    }

    var byteCount: Int { columns * rows * 12 }

    /// The colour of a packed value.
    func color(_ value: Int32) -> TerminalColor {
        if value < 0 { return .terminalDefault }
        if indexed { return .palette(UInt8(truncatingIfNeeded: value)) }
        return .rgb(UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value))
    }

    /// Draws the cells with their top-left at (x, y).
    func draw(at x: Int, _ y: Int, into canvas: inout Canvas) {
        for row in 0..<rows {
            for column in 0..<columns {
                let index = row * columns + column
                let scalar = Unicode.Scalar(characters[index]) ?? " "
                canvas.set(x: x + column, y: y + row, text: String(Character(scalar)),
                           style: Style(foreground: color(foreground[index]), background: color(background[index])))
            }
        }
    }
}

/// A preview encoded for a graphics protocol, ready for the driver to write: kitty's base64 RGB,
/// sixel, or iTerm2's base64 JPEG.
struct EncodedImage: PreviewRendering, Equatable {
    /// The image's size in pixels.
    let size: PixelSize
    /// The protocol payload; for kitty and iTerm2 the base64 text, for sixel the whole DCS string.
    let bytes: [UInt8]
    /// kitty: the base64 is of a PNG (`f=100`) rather than packed RGB (`f=24`).
    var isPNG = false
    /// Over a slow link, a smaller version sent first, which the terminal scales to the same cells.
    var reduced: ReducedImage?
    /// kitty on this machine: `bytes` are the packed RGB pixels, sent through shared memory.
    var isShared = false
    /// Sixel: the image cut into strips that each end on a cell's edge, cut where the image is made
    /// (off the main actor); none when it goes whole.
    var strips: [SixelStrips.Strip] = []

    var byteCount: Int { bytes.count + (reduced?.bytes.count ?? 0) + strips.reduce(0) { $0 + $1.head.count } }

    /// A sixel image, cut into strips of `ImageLayer.stripHeight` for cells of `cell`; whole when the
    /// cell's size is not known (an assumed one would put the strips at the wrong rows).
    static func sixel(_ bytes: [UInt8], size: PixelSize, cell: PixelSize?) -> EncodedImage {
        var image = EncodedImage(size: size, bytes: bytes)
        if let height = cell.flatMap({ ImageLayer.stripHeight(cellHeight: $0.height) }) {
            image.strips = SixelStrips.cut(bytes, bands: height / 6)
        }
        return image
    }
}

/// The quick first version of an `EncodedImage`, in the same protocol.
struct ReducedImage: Equatable {
    let size: PixelSize
    let bytes: [UInt8]
    var isPNG = false
}
