import PhotoBrowser
import PhotoPickKit
import PhotoPreviews

/// Previews, placeholders and tag chips, as the grid, the side pane, full screen and compare draw them.
extension Drawing {
    /// The request for a preview drawn in `area`, sized for the graphics mode; nil when the area is
    /// too small to show one.
    func previewRequest(photoID: Int, in area: Rect, clipping: Bool = false) -> PreviewRequest? {
        PreviewRenderer(graphics: context.graphics).box(for: area).map { PreviewRequest(photoID: photoID, box: $0, clipping: clipping) }
    }

    /// Draws a photo's preview in `area`: the image once decoded, until then an outline at the photo's
    /// aspect ratio, and a grey "no preview" box when it cannot be shown. `previewWants` asks for the
    /// same request.
    func drawPreview(photoID: Int, pixelWidth: Int?, pixelHeight: Int?, in area: Rect, clipping: Bool = false, into canvas: inout Canvas) {
        guard let request = previewRequest(photoID: photoID, in: area, clipping: clipping) else { return }
        switch context.previews?.state(for: request) {
        case .loaded(let image)?:
            let drawn = context.previews?.rendering(for: request).map {
                // The clipping drawn on a preview is other pixels for the same photo and box: a content of its
                // own (even, as a loupe frame's never is), so the terminal is sent them.
                PreviewDrawing.place($0, of: image.size, photoID: photoID, box: request.box, content: request.clipping ? 2 : 0, in: area,
                                     graphics: context.graphics, into: &canvas)
            } ?? false
            if !drawn { drawPlaceholder(pixelWidth: pixelWidth, pixelHeight: pixelHeight, in: area, into: &canvas) }
        case .failed(let error)?:
            drawNoPreview(TerminalText.sanitized(error.description), pixelWidth: pixelWidth, pixelHeight: pixelHeight, in: area, into: &canvas)
        case nil:
            drawPlaceholder(pixelWidth: pixelWidth, pixelHeight: pixelHeight, in: area, into: &canvas)
        }
    }

    /// The frame an image of the photo's shape would fill in `area`; cells are about twice as tall as wide.
    func previewFrame(pixelWidth: Int?, pixelHeight: Int?, in area: Rect) -> Rect {
        var width = area.width, height = area.height
        if let pixelWidth, let pixelHeight, pixelWidth > 0, pixelHeight > 0 {
            let aspect = Double(pixelWidth) / Double(pixelHeight) * 2  // columns per row that keep the shape
            if Double(area.width) / Double(area.height) > aspect {
                width = max(2, Int((Double(area.height) * aspect).rounded()))
            } else {
                height = max(1, Int((Double(area.width) / aspect).rounded()))
            }
        }
        return area.centred(width: min(width, area.width), height: min(height, area.height))
    }

    /// Until the image arrives: its outline with the pixel size, so the layout does not jump.
    func drawPlaceholder(pixelWidth: Int?, pixelHeight: Int?, note: String = "loading…", in area: Rect, into canvas: inout Canvas) {
        let frame = previewFrame(pixelWidth: pixelWidth, pixelHeight: pixelHeight, in: area)
        guard frame.height >= 3, frame.width >= 6 else {
            canvas.fill(frame, style: theme.dim)
            canvas.draw("…", x: frame.x + frame.width / 2, y: frame.y + frame.height / 2, style: theme.dim)
            return
        }
        canvas.drawBox(frame, style: theme.border)
        let size = pixelWidth.flatMap { w in pixelHeight.map { "\(w.formatted()) × \($0.formatted())" } }
        let lines = [note, size].compactMap { $0 }.filter { DisplayWidth.of($0) <= frame.width - 2 }
        let top = frame.y + (frame.height - lines.count) / 2
        for (offset, line) in lines.enumerated() where top + offset < frame.maxY - 1 {
            canvas.draw(line, x: frame.x + (frame.width - DisplayWidth.of(line)) / 2, y: top + offset, style: theme.dim)
        }
    }

    /// A grey box saying there is no preview, and why when there is room.
    func drawNoPreview(_ reason: String, pixelWidth: Int?, pixelHeight: Int?, in area: Rect, into canvas: inout Canvas) {
        let frame = previewFrame(pixelWidth: pixelWidth, pixelHeight: pixelHeight, in: area)
        canvas.fill(frame, style: theme.noPreview)
        let lines = ["no preview"] + (frame.height >= 3 ? Formatting.wrap(reason, width: max(1, frame.width - 2), maxLines: frame.height - 2) : [])
        let top = frame.y + (frame.height - lines.count) / 2
        for (offset, line) in lines.enumerated() {
            canvas.draw(line, x: frame.x + max(0, (frame.width - DisplayWidth.of(line)) / 2), y: top + offset, style: theme.noPreview, limit: frame.width)
        }
    }

    /// Tags as chips from `x` on, a space apart, as many as fit before `maxX`; returns where they end.
    @discardableResult
    func drawChips(_ tagIDs: [Int], tags: TagCatalog, x: Int, y: Int, maxX: Int, into canvas: inout Canvas) -> Int {
        var x = x
        for tagID in tagIDs {
            guard maxX - x > 2 else { break }
            guard let tag = tags.tag(id: tagID) else { continue }
            x += drawChip(name: tag.name, color: tags.color(id: tagID), x: x, y: y, limit: maxX - x, into: &canvas) + 1
        }
        return x
    }

    /// A tag as a dot in its colour (`#` in monochrome) and its name, within `limit` columns; returns
    /// the columns drawn.
    @discardableResult
    func drawChip(name: String, color: TagColor?, x: Int, y: Int, limit: Int, into canvas: inout Canvas) -> Int {
        guard limit > 2 else { return 0 }
        canvas.draw(theme.depth == .monochrome ? "#" : "●", x: x, y: y, style: Style(foreground: theme.tagColor(color)))
        return 1 + canvas.draw(TerminalText.sanitized(name), x: x + 1, y: y, style: theme.text, limit: limit - 1)
    }
}
