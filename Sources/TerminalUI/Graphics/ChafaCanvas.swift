import PhotoBrowser
import CChafa
import PhotoImaging

/// One libchafa canvas over packed RGB pixels: symbols read back cell by cell, or sixel bytes. Written
/// by libchafa rather than by hand because its symbol matching and sixel encoder are what chafa, yazi
/// and timg already trust; each call makes and frees its own canvas, so callers may run on any thread.
enum ChafaCanvas {
    /// The symbol modes previews use, one per colour depth.
    enum SymbolMode: Sendable {
        case truecolor, indexed256, indexed8, monochrome
    }

    /// The symbols libchafa chooses among. Block elements and spaces only: their coverage of a cell
    /// is exact, so the quality benchmark can rasterise them.
    static let symbolTags = UInt32(CHAFA_SYMBOL_TAG_BLOCK.rawValue | CHAFA_SYMBOL_TAG_SPACE.rawValue)

    /// `image` drawn into `columns` × `rows` cells of symbols. In 256 and 8 colours the symbols are
    /// chosen in 24-bit colour and their colours then mapped by `PaletteDiffusion`: measured on the demo
    /// (`photopick-bench graphics`), libchafa's own ordered dither in 256 colours kept the tone and
    /// lost the structure (SSIM 0.44), and no dither the opposite (blurred RMSE 0.084).
    static func symbols(_ image: PreviewImage, columns: Int, rows: Int, mode: SymbolMode) -> SymbolCells {
        switch mode {
        case .indexed256: return PaletteDiffusion.quantise(symbols(image, columns: columns, rows: rows, mode: .truecolor), to: .xterm256)
        case .indexed8: return PaletteDiffusion.quantise(symbols(image, columns: columns, rows: rows, mode: .truecolor), to: .ansi8)
        case .truecolor, .monochrome: break
        }
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        chafa_canvas_config_set_geometry(config, gint(columns), gint(rows))
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SYMBOLS)
        chafa_canvas_config_set_canvas_mode(config, mode == .monochrome ? CHAFA_CANVAS_MODE_FGBG : CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        // The most careful search: at 0.5 the blurred RMSE was 5% worse than chafa's own, at 1 it is not.
        chafa_canvas_config_set_work_factor(config, 1)
        let map = chafa_symbol_map_new()
        defer { chafa_symbol_map_unref(map) }
        chafa_symbol_map_add_by_tags(map, cch_tags(symbolTags))
        chafa_canvas_config_set_symbol_map(config, map)
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        draw(image, on: canvas)
        var cells = SymbolCells(columns: columns, rows: rows, indexed: false)
        var foreground: gint = 0, background: gint = 0
        for y in 0..<rows {
            for x in 0..<columns {
                let index = y * columns + x
                cells.characters[index] = UInt32(chafa_canvas_get_char_at(canvas, gint(x), gint(y)))
                if mode == .monochrome {
                    foreground = -1
                    background = -1
                } else {
                    chafa_canvas_get_colors_at(canvas, gint(x), gint(y), &foreground, &background)
                }
                cells.foreground[index] = Int32(foreground)
                cells.background[index] = Int32(background)
            }
        }
        return cells
    }

    /// `image` as one sixel image of its own size, in at most `registers` colours.
    static func sixel(_ image: PreviewImage, registers: Int) -> [UInt8] {
        let config = chafa_canvas_config_new()
        defer { chafa_canvas_config_unref(config) }
        // One pixel a cell, so the sixel image has the image's exact size and nothing is scaled.
        chafa_canvas_config_set_cell_geometry(config, 1, 1)
        chafa_canvas_config_set_geometry(config, gint(image.width), gint(image.height))
        chafa_canvas_config_set_pixel_mode(config, CHAFA_PIXEL_MODE_SIXELS)
        // Truecolor makes libchafa choose a palette of 256 colours for this image (an indexed mode would
        // map it to the fixed xterm palette and band); a terminal with fewer registers gets symbols.
        chafa_canvas_config_set_canvas_mode(config, CHAFA_CANVAS_MODE_TRUECOLOR)
        chafa_canvas_config_set_dither_mode(config, CHAFA_DITHER_MODE_NONE)
        _ = registers
        let canvas = chafa_canvas_new(config)
        defer { chafa_canvas_unref(canvas) }
        draw(image, on: canvas)
        var buffer: UnsafeMutablePointer<CChar>?
        let length = cch_print(canvas, &buffer)
        guard let buffer else { return [] }
        defer { cch_free(buffer) }
        return buffer.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// Hands libchafa the pixels as RGBA: its scaler reads packed RGB wrongly when it must resample
    /// (libchafa 1.12: a purple photo came out grey in symbols, while the same pixels at 1:1 in sixel
    /// were right), and RGBA is the layout it is built around.
    private static func draw(_ image: PreviewImage, on canvas: OpaquePointer?) {
        var rgba = [UInt8](repeating: 255, count: image.width * image.height * 4)
        image.pixels.withUnsafeBufferPointer { source in
            rgba.withUnsafeMutableBufferPointer { target in
                for index in 0..<(image.width * image.height) {
                    target[index * 4] = source[index * 3]
                    target[index * 4 + 1] = source[index * 3 + 1]
                    target[index * 4 + 2] = source[index * 3 + 2]
                }
            }
        }
        rgba.withUnsafeBufferPointer { pixels in
            chafa_canvas_draw_all_pixels(
                canvas, CHAFA_PIXEL_RGBA8_UNASSOCIATED, pixels.baseAddress, gint(image.width), gint(image.height), gint(image.width * 4)
            )
        }
    }
}
