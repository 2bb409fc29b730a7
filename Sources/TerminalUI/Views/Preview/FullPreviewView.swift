import PhotoBrowser
import PhotoImaging

/// `p`: the current photo as large as the body allows, with a caption: position, mark, name, tags; with
/// `z`, the loupe's view of it at 100%.
struct FullPreviewView: View {
    let context: ViewContext
    let state: BrowserState
    let zoom: UIState.Zoom?
    /// `J`: blown highlights and crushed shadows shown red and blue.
    var clipping = false
    /// `H`: the histogram in the picture's corner: of the preview, or in the loupe of the whole original.
    var histogram = false
    let body: Rect

    /// Where the full-screen preview draws the photo: the body above its one-line caption, less a
    /// column on the right for the histogram when `H` shows it (an image half covered would be taken
    /// off the screen whole, in sixel).
    static func fullPreviewImage(in body: Rect, histogram: Bool = false) -> Rect {
        let above = body.splitBottom(1).1
        guard histogram, let panel = histogramPanel(in: body) else { return above }
        return Rect(x: above.x, y: above.y, width: panel.x - above.x - 1, height: above.height)
    }

    /// The histogram's box: the bottom of a column at the right of the picture, nil when the body is too
    /// narrow or short for it.
    static func histogramPanel(in body: Rect) -> Rect? {
        let above = body.splitBottom(1).1
        let width = min(44, max(30, above.width / 4)), height = min(above.height, 9)
        guard above.width - width >= 30, height >= 5 else { return nil }
        return Rect(x: above.maxX - width, y: above.maxY - height, width: width, height: height)
    }

    func draw(in canvas: inout Canvas) {
        guard let photo = state.currentPhoto, let index = state.list.currentIndex else {
            canvas.draw("No photo to show.", x: body.x + 2, y: body.y + 1, style: theme.dim)
            return
        }
        let imageArea = Self.fullPreviewImage(in: body, histogram: histogram), caption = Rect(x: body.x, y: imageArea.maxY, width: body.width, height: 1)
        if let zoom {
            LoupeView(context: context, photo: state.library.photo(at: index), centre: zoom.centre, area: imageArea, clipping: clipping, histogram: histogram)
                .draw(in: &canvas)
        } else {
            drawPreview(photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height, in: imageArea, clipping: clipping, into: &canvas)
        }
        if histogram, let panel = Self.histogramPanel(in: body) { drawHistogramBox(photoID: photo.id, inLoupe: zoom != nil, picture: imageArea, in: panel, into: &canvas) }
        let selected = state.selection.contains(index)
        var x = caption.x + 1
        x += canvas.draw("\((state.list.cursor + 1).formatted())/\(state.list.count.formatted())", x: x, y: caption.y, style: theme.dim) + 1
        if selected { x += canvas.draw(theme.depth == .monochrome ? "*" : "✓", x: x, y: caption.y, style: theme.selectedMark) + 1 }
        x += canvas.draw(TerminalText.sanitized(photo.filename), x: x, y: caption.y, style: selected ? theme.selectedText : theme.title, limit: caption.maxX - x) + 2
        let marked = drawMarks(state.tags.marks(of: photo.tagIDs), x: x, y: caption.y, base: .plain, limit: max(0, caption.maxX - x), into: &canvas)
        if marked > 0 { x += marked + 2 }
        if let badge = stackBadge(state.list.stackCount(at: state.list.cursor), pair: state.list.pairBadge(at: state.list.cursor, library: state.library)) { x += canvas.draw(badge, x: x, y: caption.y, style: theme.label) + 2 }
        if zoom != nil {
            // The loupe's state in place of the tags: what shows, and how far the original has come.
            let note = loupeNote(photoID: photo.id, short: false)
            x += canvas.draw(note.text, x: x, y: caption.y, style: note.warning ? theme.warning : theme.label, limit: max(0, caption.maxX - x)) + 2
            if let focus = state.focusFacts(at: index)?.loupeText {
                x += canvas.draw(focus, x: x, y: caption.y, style: theme.dim, limit: max(0, caption.maxX - x)) + 2
            }
        } else {
            x = drawChips(state.tags.ordinaryTags(photo.tagIDs), tags: state.tags, x: x, y: caption.y, maxX: caption.maxX, into: &canvas)
        }
        let hint = zoom == nil ? "\(context.keymap.hint(.preview)) or esc returns" : "\(context.keymap.hint(.zoom)) or esc returns"
        if caption.maxX - x > DisplayWidth.of(hint) + 1 { canvas.drawRight(hint, maxX: caption.maxX - 1, y: caption.y, style: theme.dim, limit: DisplayWidth.of(hint)) }
    }

    /// The histogram in a box beside the picture: of the preview on screen (`picture` is where it is), or
    /// in the loupe of the whole original once it is counted.
    private func drawHistogramBox(photoID: Int, inLoupe: Bool, picture area: Rect, in box: Rect, into canvas: inout Canvas) {
        let background = theme.overlay.background
        canvas.fill(box, style: theme.overlay)
        canvas.drawBox(box, style: theme.border.on(background), title: inLoupe ? "Histogram · original" : "Histogram", titleStyle: theme.title.on(background))
        let inner = box.inset(1)
        let histogram: Histogram? = if inLoupe {
            context.loupes?.histogram(photoID: photoID)
        } else {
            previewRequest(photoID: photoID, in: area, clipping: clipping).flatMap { context.previews?.histogram(for: $0) }
        }
        guard let histogram else {
            canvas.draw(inLoupe ? "counting the original…" : "waiting for the preview…", x: inner.x, y: inner.y, style: theme.dim.on(background), limit: inner.width)
            return
        }
        drawHistogram(histogram, warnAbove: context.clippingWarning, in: inner, into: &canvas, background: background)
    }
}
