import PhotoBrowser

/// Draws decoded pixels into the canvas. In colour each cell shows two pixels stacked, `▀` with the
/// upper pixel as foreground and the lower as background, so a cell about twice as tall as wide holds
/// two square pixels. In monochrome each cell is a character from a density ramp.
public enum ImagePainter {
    /// From sparse to dense; on a dark background dense reads as bright.
    static let ramp: [String] = [" ", ".", ":", "-", "=", "+", "*", "#", "%", "@"]
    static let upperHalf = "▀"

    /// The pixels an image may have to fill `area`: one per column, two per row.
    public static func pixelBox(for area: Rect) -> PixelSize {
        PixelSize(width: max(1, area.width), height: max(1, area.height * 2))
    }

    /// The cells `image` covers, centred in `area` (and cut to it, should the image be larger).
    static func frame(of image: PreviewImage, in area: Rect) -> Rect {
        let columns = min(area.width, image.width)
        let rows = min(area.height, (image.height + 1) / 2)
        return area.centred(width: columns, height: rows)
    }

    /// Draws `image` centred in `area`.
    public static func draw(_ image: PreviewImage, in area: Rect, theme: Theme, into canvas: inout Canvas) {
        let frame = frame(of: image, in: area)
        guard frame.width > 0, frame.height > 0 else { return }
        // When the image is larger than the area (a preview made for a larger pane), show its middle.
        let offsetX = (image.width - frame.width) / 2
        let offsetY = max(0, (image.height - frame.height * 2) / 2)
        if theme.depth == .monochrome {
            drawDensity(image, frame: frame, offsetX: offsetX, offsetY: offsetY, inverted: theme.name == .light, into: &canvas)
            return
        }
        let quantizer = ColorQuantizer(depth: theme.depth)
        image.pixels.withUnsafeBufferPointer { pixels in
            for row in 0..<frame.height {
                let top = offsetY + row * 2
                let bottom = top + 1
                for column in 0..<frame.width {
                    let x = offsetX + column
                    let upper = index(pixels, image.width, x, top)
                    let foreground = quantizer.color(pixels[upper], pixels[upper + 1], pixels[upper + 2], x: x, y: top)
                    let background: TerminalColor
                    if bottom < image.height {
                        let lower = index(pixels, image.width, x, bottom)
                        background = .palette(quantizer.color(pixels[lower], pixels[lower + 1], pixels[lower + 2], x: x, y: bottom))
                    } else {
                        background = .terminalDefault
                    }
                    canvas.set(x: frame.x + column, y: frame.y + row, text: upperHalf,
                               style: Style(foreground: .palette(foreground), background: background))
                }
            }
        }
    }

    @inline(__always)
    private static func index(_ pixels: UnsafeBufferPointer<UInt8>, _ width: Int, _ x: Int, _ y: Int) -> Int {
        (y * width + x) * 3
    }

    /// Monochrome: the mean luma of the cell's two pixels, as a character of the ramp.
    private static func drawDensity(
        _ image: PreviewImage, frame: Rect, offsetX: Int, offsetY: Int, inverted: Bool, into canvas: inout Canvas
    ) {
        for row in 0..<frame.height {
            let top = offsetY + row * 2
            for column in 0..<frame.width {
                let x = offsetX + column
                var luma = luma(image[x, top])
                if top + 1 < image.height { luma = (luma + Self.luma(image[x, top + 1])) / 2 }
                if inverted { luma = 255 - luma }
                let level = min(ramp.count - 1, luma * ramp.count / 256)
                canvas.set(x: frame.x + column, y: frame.y + row, text: ramp[level], style: .plain)
            }
        }
    }

    /// Rec. 601 luma, 0...255.
    static func luma(_ pixel: (red: UInt8, green: UInt8, blue: UInt8)) -> Int {
        (299 * Int(pixel.red) + 587 * Int(pixel.green) + 114 * Int(pixel.blue)) / 1000
    }
}
