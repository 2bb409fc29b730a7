import PhotoBrowser

/// Previews drawn as the views draw them, for the benchmarks: the box a preview is decoded for, and a
/// decoded image rendered and drawn into cells.
public enum PreviewDrawing {
    /// The pixel box a preview in `area` is decoded to fit in `graphics`' mode.
    public static func box(for area: Rect, graphics: Graphics) -> PixelSize? {
        PreviewRenderer(graphics: graphics).box(for: area)
    }

    /// Renders `image` (decoded for `box`) and draws it centred in `area`: symbols into the cells, or
    /// blank cells with the image placed over them.
    public static func draw(_ image: PreviewImage, box: PixelSize, in area: Rect, graphics: Graphics, into canvas: inout Canvas) {
        let renderer = PreviewRenderer(graphics: graphics)
        let cells = renderer.cells(for: image.size, in: box)
        let frame = area.centred(width: cells.columns, height: cells.rows)
        switch renderer.render(PreviewRequest(photoID: 0, box: box), image, []) {
        case let symbols as SymbolCells:
            symbols.draw(at: frame.x, frame.y, into: &canvas)
            canvas.placeImage(ImagePlacement(photoID: 0, box: box, rect: frame))
        case let encoded as EncodedImage:
            canvas.fill(frame, style: .imageUnderlay)
            canvas.placeImage(ImagePlacement(photoID: 0, box: box, rect: frame, payload: encoded))
        default:
            break
        }
    }
}
