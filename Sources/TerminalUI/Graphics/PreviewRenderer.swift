import ExtrasBase64
import PhotoBrowser
import PhotoImaging
import PhotoPreviews

/// Makes decoded previews ready for the screen in the session's graphics mode, on the loader's tasks
/// rather than the main actor: symbols into cells, or the bytes of an image protocol.
struct PreviewRenderer: Sendable {
    let graphics: Graphics

    /// The pixels a cell of symbols is drawn from: 8 across, as libchafa samples, and as many down as
    /// keep the terminal's cell shape (16 for the common 1:2).
    var symbolCell: PixelSize {
        let cell = graphics.layoutCell
        return PixelSize(width: 8, height: max(8, Int((8 * Double(cell.height) / Double(cell.width)).rounded())))
    }

    /// The pixels one cell stands for in this mode.
    private var unit: PixelSize { graphics.placesPixels ? graphics.layoutCell : symbolCell }

    /// The pixel box a preview in `area` is decoded to fit, or nil when the area cannot show one.
    func box(for area: Rect) -> PixelSize? {
        guard area.width >= 2, area.height >= 1 else { return nil }
        var width = area.width * unit.width, height = area.height * unit.height
        if graphics.mode == .sixel {
            if let limit = graphics.sixelLimit {
                width = min(width, limit.width)
                height = min(height, limit.height)
            }
            // Sixel draws six rows at a time: a height that is not a multiple would spill into the next cell.
            // tmux draws each image over whole cells itself, and a loupe's view of whole cells fills them.
            if !graphics.inTmux { height -= height % 6 }
        }
        return width > 0 && height > 0 ? PixelSize(width: width, height: height) : nil
    }

    /// The cells an image decoded for `box` covers: as pixels, every cell a pixel of it falls in; as
    /// symbols, the nearest whole cells to its shape. Never more than the box's cells.
    func cells(for image: PixelSize, in box: PixelSize) -> (columns: Int, rows: Int) {
        let unit = unit
        // Every cell the box reaches: a sixel box trimmed to a multiple of six pixels can end partway into
        // a cell, and the image drawn there must own that cell, or the text drawn into it paints over it.
        let limit = (
            columns: max(1, (box.width + unit.width - 1) / unit.width), rows: max(1, (box.height + unit.height - 1) / unit.height)
        )
        let rule: FloatingPointRoundingRule = graphics.placesPixels ? .up : .toNearestOrAwayFromZero
        let columns = Int((Double(image.width) / Double(unit.width)).rounded(rule))
        let rows = Int((Double(image.height) / Double(unit.height)).rounded(rule))
        return (min(limit.columns, max(1, columns)), min(limit.rows, max(1, rows)))
    }

    /// The rendering for a decoded preview; `source` is the JPEG as fetched (iTerm2 sends it as it came).
    func render(_ request: PreviewRequest, _ image: PreviewImage, _ source: [UInt8]) -> (any PreviewRendering)? {
        switch graphics.mode {
        case .symbols, .auto:
            let cells = cells(for: image.size, in: request.box)
            return ChafaCanvas.symbols(image, columns: cells.columns, rows: cells.rows, mode: symbolMode)
        case .kitty where graphics.kittySharedMemory:
            // The terminal reads the pixels from this machine's memory: nothing to compress or encode.
            return EncodedImage(size: image.size, bytes: image.pixels, isShared: true)
        case .kitty:
            // Over SSH every byte is time: a PNG is 38–42% of the RGB on the demo's photos (`photopick-bench
            // graphics` and `link`). swift-extras-base64: 2.7 MB of RGB took Foundation 10 ms.
            guard let base64 = image.withPNG({ Base64.encodeToBytes(bytes: $0) }) else {
                return EncodedImage(size: image.size, bytes: Base64.encodeToBytes(bytes: image.pixels))
            }
            return EncodedImage(size: image.size, bytes: base64, isPNG: true, reduced: reduced(image, png: true))
        case .sixel:
            let image = graphics.inTmux ? Self.extended(image, toWholeCells: graphics.layoutCell) : image
            return EncodedImage.sixel(ChafaCanvas.sixel(image, registers: 256), size: image.size, cell: graphics.cellAssumed ? nil : graphics.cell)
        case .iterm:
            // A loupe's view was never a file: it is sent as one; nor is a rendition far larger than the
            // cells show (a `web` JPEG in the side pane): it goes at the size shown, a fraction of the bytes.
            let larger = jpegPixelSize(source).map { $0.width * $0.height > 2 * image.width * image.height } ?? false
            guard let file = source.isEmpty || larger ? image.jpeg() : source else { return nil }
            return EncodedImage(size: image.size, bytes: Base64.encodeToBytes(bytes: file), reduced: reduced(image, png: false))
        }
    }

    /// `image` grown to whole cells by repeating its last column and row. tmux (3.5a) draws a sixel image
    /// over whole cells and fills the part of the last ones the image does not cover with colour
    /// register 0: a band of some colour of the photo's along its right and bottom edges, seen in xterm.
    /// A few repeated pixels at the edge are not seen.
    static func extended(_ image: PreviewImage, toWholeCells cell: PixelSize) -> PreviewImage {
        guard cell.width > 0, cell.height > 0, image.width > 0, image.height > 0 else { return image }
        let width = (image.width + cell.width - 1) / cell.width * cell.width
        let height = (image.height + cell.height - 1) / cell.height * cell.height
        guard width != image.width || height != image.height else { return image }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * 3)
        for row in 0..<height {
            let from = min(row, image.height - 1) * image.width * 3, rowEnd = from + image.width * 3
            pixels += image.pixels[from..<rowEnd]
            for _ in image.width..<width { pixels += image.pixels[(rowEnd - 3)..<rowEnd] }
        }
        return PreviewImage(width: width, height: height, pixels: pixels)
    }

    /// Over a slow link, a quarter of the width and height (a sixteenth of the pixels) for kitty and
    /// iTerm2, which scale it to the same cells while the whole image follows. Sixel cannot scale.
    private func reduced(_ image: PreviewImage, png: Bool) -> ReducedImage? {
        guard LinkGauge.isSlow, image.width >= 64, image.height >= 64 else { return nil }
        let small = image.reduced(by: 4)
        let base64 = png ? small.withPNG { Base64.encodeToBytes(bytes: $0) } : small.jpeg(quality: 80).map { Base64.encodeToBytes(bytes: $0) }
        return base64.map { ReducedImage(size: small.size, bytes: $0, isPNG: png) }
    }

    private var symbolMode: ChafaCanvas.SymbolMode {
        switch graphics.depth {
        case .direct: .truecolor
        case .colors256: .indexed256
        case .colors8: .indexed8
        case .monochrome: .monochrome
        }
    }
}
