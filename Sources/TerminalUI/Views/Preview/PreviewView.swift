import PhotoBrowser
import PhotoPickKit

extension Screen {
    /// Draws a photo's preview in `area`: the image once decoded, until then an outline at the photo's
    /// aspect ratio, and a grey "no preview" box when it cannot be shown. `previewWants` asks for the
    /// same request.
    func drawPreview(photoID: Int, pixelWidth: Int?, pixelHeight: Int?, in area: Rect, into canvas: inout Canvas) {
        guard let request = previewRequest(photoID: photoID, in: area) else { return }
        switch context.previews?.state(for: request) {
        case .loaded(let image)?:
            let drawn = context.previews?.rendering(for: request).map {
                PreviewDrawing.place($0, of: image.size, photoID: photoID, box: request.box, in: area, graphics: context.graphics, into: &canvas)
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

    // MARK: Full screen

    /// Where the full-screen preview draws the photo: the body above its one-line caption.
    static func fullPreviewImage(in body: Rect) -> Rect {
        body.splitBottom(1).1
    }

    /// `p`: the current photo as large as the body allows, with a caption: position, mark, name, tags.
    func drawFullPreview(_ state: BrowserState, zoom: UIState.Zoom? = nil, in body: Rect, into canvas: inout Canvas) {
        guard let photo = state.currentPhoto, let index = state.list.currentIndex else {
            canvas.draw("No photo to show.", x: body.x + 2, y: body.y + 1, style: theme.dim)
            return
        }
        let imageArea = Self.fullPreviewImage(in: body), caption = Rect(x: body.x, y: imageArea.maxY, width: body.width, height: 1)
        if let zoom {
            drawLoupe(state.library.photo(at: index), centre: zoom.centre, in: imageArea, into: &canvas)
        } else {
            drawPreview(photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height, in: imageArea, into: &canvas)
        }
        let selected = state.selection.contains(index)
        var x = caption.x + 1
        x += canvas.draw("\((state.list.cursor + 1).formatted())/\(state.list.count.formatted())", x: x, y: caption.y, style: theme.dim) + 1
        if selected { x += canvas.draw(theme.depth == .monochrome ? "*" : "●", x: x, y: caption.y, style: theme.selectedMark) + 1 }
        x += canvas.draw(TerminalText.sanitized(photo.filename), x: x, y: caption.y, style: selected ? theme.selectedText : theme.title, limit: caption.maxX - x) + 2
        let marked = drawMarks(state.tags.marks(of: photo.tagIDs), x: x, y: caption.y, base: .plain, fixed: false, limit: max(0, caption.maxX - x), into: &canvas)
        if marked > 0 { x += marked + 2 }
        if let badge = stackBadge(state.list.stackCount(at: state.list.cursor)) { x += canvas.draw(badge, x: x, y: caption.y, style: theme.label) + 2 }
        if zoom != nil {
            // The loupe's state in place of the tags: what shows, and how far the original has come.
            let note = loupeNote(photoID: photo.id, short: false)
            x += canvas.draw(note.text, x: x, y: caption.y, style: note.warning ? theme.warning : theme.label, limit: max(0, caption.maxX - x)) + 2
        } else {
            x = drawChips(state.tags.ordinaryTags(photo.tagIDs), tags: state.tags, x: x, y: caption.y, maxX: caption.maxX, into: &canvas)
        }
        let hint = zoom == nil ? "\(context.keymap.hint(.preview)) or esc returns" : "\(context.keymap.hint(.zoom)) or esc returns"
        if caption.maxX - x > DisplayWidth.of(hint) + 1 { canvas.drawRight(hint, maxX: caption.maxX - 1, y: caption.y, style: theme.dim, limit: DisplayWidth.of(hint)) }
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
