import PhotoBrowser
import PhotoImaging
import PhotoPreviews

/// Previews drawn into cells, by the views and the benchmarks alike: the box a preview is decoded for,
/// and a rendering drawn and placed.
public enum PreviewDrawing {
    /// The pixel box a preview in `area` is decoded to fit in `graphics`' mode.
    public static func box(for area: Rect, graphics: Graphics) -> PixelSize? {
        PreviewRenderer(graphics: graphics).box(for: area)
    }

    /// A cell of symbols as a person sees it: the character and its two colours in RGB (the terminal's
    /// default foreground counted as white, its background as black).
    public struct SeenCell: Sendable {
        /// The symbol.
        public let character: Character
        /// Foreground red, green, blue.
        public let foreground: (UInt8, UInt8, UInt8)
        /// Background red, green, blue.
        public let background: (UInt8, UInt8, UInt8)

        /// A cell as seen.
        public init(character: Character, foreground: (UInt8, UInt8, UInt8), background: (UInt8, UInt8, UInt8)) {
            self.character = character
            self.foreground = foreground
            self.background = background
        }
    }

    /// `image` as symbols for `box` in `graphics`' colours, cell by cell, row by row.
    public static func symbols(_ image: PreviewImage, box: PixelSize, graphics: Graphics) -> (columns: Int, rows: Int, cells: [SeenCell]) {
        let renderer = PreviewRenderer(graphics: graphics)
        guard let cells = renderer.render(PreviewRequest(photoID: 0, box: box), image, []) as? SymbolCells else { return (0, 0, []) }
        let seen = cells.characters.indices.map { index in
            SeenCell(character: Character(Unicode.Scalar(cells.characters[index]) ?? " "),
                     foreground: rgb(cells.color(cells.foreground[index]), default: (255, 255, 255)),
                     background: rgb(cells.color(cells.background[index]), default: (0, 0, 0)))
        }
        return (cells.columns, cells.rows, seen)
    }

    /// The RGB xterm shows for palette colour `index`.
    public static func paletteRGB(_ index: UInt8) -> (UInt8, UInt8, UInt8) {
        rgb(.palette(index), default: (0, 0, 0))
    }

    private static func rgb(_ color: TerminalColor, default fallback: (UInt8, UInt8, UInt8)) -> (UInt8, UInt8, UInt8) {
        switch color {
        case .terminalDefault: return fallback
        case .rgb(let r, let g, let b): return (r, g, b)
        case .palette(let index):
            let (r, g, b) = XtermPalette.rgb(index)
            return (UInt8(r), UInt8(g), UInt8(b))
        }
    }

    /// The bytes a pixel mode writes for `image` (kitty's base64 RGB, sixel, or iTerm2's base64 of
    /// `source`), as the loader makes them.
    public static func encoded(_ image: PreviewImage, source: [UInt8], box: PixelSize, graphics: Graphics) -> [UInt8] {
        (PreviewRenderer(graphics: graphics).render(PreviewRequest(photoID: 0, box: box), image, source) as? EncodedImage)?.bytes ?? []
    }

    /// Renders `image` (decoded for `box`) and draws it centred in `area`: symbols into the cells, or
    /// blank cells with the image placed over them.
    public static func draw(_ image: PreviewImage, box: PixelSize, in area: Rect, graphics: Graphics, into canvas: inout Canvas) {
        guard let rendering = PreviewRenderer(graphics: graphics).render(PreviewRequest(photoID: 0, box: box), image, []) else { return }
        _ = place(rendering, of: image.size, photoID: 0, box: box, in: area, graphics: graphics, into: &canvas)
    }

    /// Draws a rendering centred in `area` and records its placement: symbols into the cells, kitty
    /// placeholder cells, or blank cells under pixels the driver places. False for a rendering of no
    /// known kind, which the caller shows otherwise.
    static func place(
        _ rendering: any PreviewRendering, of imageSize: PixelSize, photoID: Int, box: PixelSize, content: Int = 0, in area: Rect,
        graphics: Graphics, into canvas: inout Canvas
    ) -> Bool {
        switch rendering {
        case let symbols as SymbolCells:
            let frame = area.centred(width: symbols.columns, height: symbols.rows)
            symbols.draw(at: frame.x, frame.y, into: &canvas)
            canvas.placeImage(ImagePlacement(photoID: photoID, box: box, content: content, rect: frame))
        case let encoded as EncodedImage:
            let cells = PreviewRenderer(graphics: graphics).cells(for: imageSize, in: box)
            let frame = area.centred(width: cells.columns, height: cells.rows)
            if graphics.kittyPlaceholders {
                drawPlaceholders(photoID: photoID, box: box, content: content, depth: graphics.depth, in: frame, into: &canvas)
            } else {
                // The cells stay blank under the pixels; the driver places the image over them.
                canvas.fill(frame, style: .imageUnderlay)
            }
            canvas.placeImage(ImagePlacement(photoID: photoID, box: box, content: content, rect: frame, payload: encoded))
        default:
            return false
        }
        return true
    }

    /// kitty's placeholder cells for the image, which the terminal fills with its pixels.
    private static func drawPlaceholders(photoID: Int, box: PixelSize, content: Int, depth: Theme.Depth, in frame: Rect, into canvas: inout Canvas) {
        let id = KittyPlaceholders.id(photoID: photoID, box: box, content: content, colors: depth)
        let style = Style(foreground: KittyPlaceholders.color(of: id, colors: depth))
        for row in 0..<min(frame.height, KittyPlaceholders.diacritics.count) {
            for column in 0..<min(frame.width, KittyPlaceholders.diacritics.count) {
                canvas.set(x: frame.x + column, y: frame.y + row, text: KittyPlaceholders.cell(row: row, column: column, id: id), style: style)
            }
        }
    }
}
