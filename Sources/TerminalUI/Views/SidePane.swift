import PhotoBrowser

extension Screen {
    /// The side pane: the current photo's name, its preview, and its metadata rows.
    func drawSidePane(_ state: BrowserState, in rect: Rect, into canvas: inout Canvas) {
        for y in rect.y..<rect.maxY { canvas.draw("│", x: rect.x, y: y, style: theme.border) }
        let inner = Self.sidePaneInner(rect)
        guard let photo = state.currentPhoto, inner.width > 4 else { return }
        canvas.draw(TerminalText.sanitized(photo.filename), x: inner.x, y: inner.y, style: theme.title, limit: inner.width)
        let preview = Self.sidePanePreview(in: rect)
        drawPreview(photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height, in: preview, into: &canvas)
        let rowsArea = Rect(x: inner.x, y: preview.maxY + 1, width: inner.width, height: inner.maxY - preview.maxY - 1)
        let focus = state.list.currentIndex.flatMap(state.focusFacts(at:))
        drawMetadata(context.presenter.rows(for: photo, tags: state.tags, focus: focus), in: rowsArea, labelWidth: 10, into: &canvas)
    }

    /// Where the side pane in `rect` shows the preview: below the name, two fifths of its height.
    static func sidePanePreview(in rect: Rect) -> Rect {
        let inner = sidePaneInner(rect)
        let previewHeight = min(inner.height * 2 / 5, max(4, inner.width / 2))
        return Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: previewHeight)
    }

    /// The side pane inside its border and margins.
    private static func sidePaneInner(_ rect: Rect) -> Rect {
        Rect(x: rect.x + 2, y: rect.y, width: rect.width - 3, height: rect.height)
    }

    /// Label and value rows; long values wrap while there is room, tags show as coloured chips.
    func drawMetadata(_ rows: [MetadataRow], in rect: Rect, labelWidth: Int, scroll: Int = 0, into canvas: inout Canvas) {
        var y = rect.y - scroll
        let valueX = rect.x + labelWidth + 1
        let valueWidth = rect.maxX - valueX
        guard valueWidth > 2 else { return }
        for row in rows {
            guard y < rect.maxY else { break }
            if y >= rect.y { canvas.draw(row.label, x: rect.x, y: y, style: theme.label, limit: labelWidth) }
            if let marks = row.marks {
                if y >= rect.y {
                    let drawn = drawMarks(marks, x: valueX, y: y, base: .plain, fixed: false, limit: valueWidth, into: &canvas)
                    canvas.draw(row.value, x: valueX + drawn + 1, y: y, style: theme.dim, limit: max(0, valueWidth - drawn - 1))
                }
                y += 1
                continue
            }
            if !row.tags.isEmpty {
                var x = valueX
                for chip in row.tags {
                    let name = TerminalText.sanitized(chip.name)
                    let width = DisplayWidth.of(name) + 2
                    if x > valueX && x + width > rect.maxX {
                        x = valueX
                        y += 1
                    }
                    guard y < rect.maxY else { break }
                    if y >= rect.y { drawChip(name: chip.name, color: chip.color, x: x, y: y, limit: rect.maxX - x, into: &canvas) }
                    x += width
                }
                y += 1
                continue
            }
            let maxLines = row.isProse ? max(1, rect.maxY - y) : 2
            for line in Formatting.wrap(row.value, width: valueWidth, maxLines: maxLines) {
                if y >= rect.y && y < rect.maxY { canvas.draw(line, x: valueX, y: y, style: theme.text, limit: valueWidth) }
                y += 1
            }
        }
    }

    /// Every metadata row of the current photo, full width, scrollable.
    func drawDetails(_ state: BrowserState, scroll: Int, in rect: Rect, into canvas: inout Canvas) {
        guard let photo = state.currentPhoto else { return }
        canvas.drawBox(rect, style: theme.border, title: TerminalText.sanitized(photo.filename), titleStyle: theme.title)
        let inner = rect.inset(1)
        let rows = context.presenter.rows(for: photo, tags: state.tags, focus: state.list.currentIndex.flatMap(state.focusFacts(at:)))
        drawMetadata(rows, in: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height - 1), labelWidth: 12, scroll: scroll, into: &canvas)
        canvas.draw("j/k scroll · esc back", x: inner.x + 1, y: inner.maxY - 1, style: theme.hint, limit: inner.width - 2)
    }
}
