import PhotoBrowser

/// `C`: the photos side by side at the largest size that fits, each with its place, name, marks and
/// sharpness; the active one's caption stands out. With `z`, each shows its loupe view at 100%.
struct CompareView: View {
    let context: ViewContext
    let state: BrowserState
    let compare: UIState.Compare
    let zoom: UIState.Zoom?
    /// `J`: blown highlights and crushed shadows shown red and blue.
    var clipping = false
    let body: Rect

    /// Where compare puts each photo shown: the body split into the columns and rows that give the
    /// photos the largest size, each pane an image above a one-line caption.
    static func comparePanes(count: Int, pixelWidth: Int?, pixelHeight: Int?, in body: Rect) -> [Rect] {
        guard count > 0, body.width > 0, body.height > 1 else { return [] }
        // Columns per row that keep the photo's shape (cells are about twice as tall as wide).
        let aspect = pixelWidth.flatMap { w in pixelHeight.map { h in Double(w) / Double(max(1, h)) * 2 } } ?? 3
        var best: (area: Double, columns: Int) = (-1, count)
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            let width = Double(body.width / columns - 1), height = Double(body.height / rows - 1)
            guard width > 0, height > 0 else { continue }
            let fitted = min(width, height * aspect)
            let area = fitted * fitted / aspect
            if area > best.area { best = (area, columns) }
        }
        let columns = best.columns, rows = (count + columns - 1) / columns
        let paneWidth = body.width / columns, paneHeight = body.height / rows
        return (0..<count).map { slot in
            Rect(x: body.x + (slot % columns) * paneWidth, y: body.y + (slot / columns) * paneHeight, width: paneWidth, height: paneHeight)
        }
    }

    /// Where a compare pane draws its photo: the pane less its caption and a column between panes.
    static func compareImage(in pane: Rect) -> Rect {
        Rect(x: pane.x, y: pane.y, width: max(0, pane.width - 1), height: max(0, pane.height - 1))
    }

    func draw(in canvas: inout Canvas) {
        let shown = Array(compare.shown)
        let active = state.library.index(ofID: compare.activeID).map { state.library.photo(at: $0) }
        let panes = Self.comparePanes(count: shown.count, pixelWidth: active?.width, pixelHeight: active?.height, in: body)
        for (slot, position) in shown.enumerated() where slot < panes.count {
            let pane = panes[slot]
            guard let index = state.library.index(ofID: compare.photoIDs[position]) else { continue }
            let photo = state.library.photo(at: index)
            if let zoom {
                LoupeView(context: context, photo: photo, centre: zoom.centre, area: Self.compareImage(in: pane), clipping: clipping).draw(in: &canvas)
            } else {
                drawPreview(photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height, in: Self.compareImage(in: pane), clipping: clipping, into: &canvas)
            }
            let caption = Rect(x: pane.x, y: pane.maxY - 1, width: max(0, pane.width - 1), height: 1)
            let isActive = position == compare.active
            if isActive { canvas.fill(caption, style: theme.currentRow) }
            let base: Style = isActive ? theme.currentRow : .plain
            var x = caption.x
            x += canvas.draw(isActive ? "▶" : " ", x: x, y: caption.y, style: isActive ? theme.title.on(base.background) : base)
            x += canvas.draw("\(position + 1)/\(compare.photoIDs.count) ", x: x, y: caption.y, style: theme.dim.on(base.background), limit: caption.maxX - x)
            x += canvas.draw(TerminalText.sanitized(photo.filename), x: x, y: caption.y, style: (isActive ? theme.title : theme.text).on(base.background),
                             limit: max(0, caption.maxX - x)) + 1
            let marked = drawMarks(state.tags.marks(of: photo.tagIDs), x: x, y: caption.y, base: base, limit: max(0, caption.maxX - x), into: &canvas)
            if marked > 0 { x += marked + 1 }
            if zoom != nil {
                var note = loupeNote(photoID: photo.id, short: true)
                if !note.warning, let focus = state.focusFacts(at: index)?.atFullSize {
                    note.text += " · sharp \(focus.formatted(.number.precision(.fractionLength(1))))"
                }
                canvas.drawRight(note.text, maxX: caption.maxX, y: caption.y, style: (note.warning ? theme.warning : theme.dim).on(base.background),
                                 limit: max(0, caption.maxX - x))
            } else if let focus = state.focusFacts(at: index)?.score, caption.maxX - x > 6 {
                canvas.drawRight("sharp \(focus.formatted(.number.precision(.fractionLength(1))))", maxX: caption.maxX, y: caption.y,
                                 style: theme.dim.on(base.background), limit: caption.maxX - x)
            }
        }
    }
}
