import PhotoBrowser

/// `p`: the current photo as large as the body allows, with a caption: position, mark, name, tags; with
/// `z`, the loupe's view of it at 100%.
struct FullPreviewView: View {
    let context: ViewContext
    let state: BrowserState
    let zoom: UIState.Zoom?
    let body: Rect

    /// Where the full-screen preview draws the photo: the body above its one-line caption.
    static func fullPreviewImage(in body: Rect) -> Rect {
        body.splitBottom(1).1
    }

    func draw(in canvas: inout Canvas) {
        guard let photo = state.currentPhoto, let index = state.list.currentIndex else {
            canvas.draw("No photo to show.", x: body.x + 2, y: body.y + 1, style: theme.dim)
            return
        }
        let imageArea = Self.fullPreviewImage(in: body), caption = Rect(x: body.x, y: imageArea.maxY, width: body.width, height: 1)
        if let zoom {
            LoupeView(context: context, photo: state.library.photo(at: index), centre: zoom.centre, area: imageArea).draw(in: &canvas)
        } else {
            drawPreview(photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height, in: imageArea, into: &canvas)
        }
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
}
