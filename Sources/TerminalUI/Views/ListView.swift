import PhotoBrowser
import PhotoPickKit
import PhotoPickFormats

/// The photo list: only the rows in view are drawn, each with its selection mark, tag chips, filename,
/// capture time and size; the current row is highlighted and a scroll bar shows where the view is.
struct ListView: View {
    let context: ViewContext
    let state: BrowserState
    let layout: ScreenLayout

    func draw(in canvas: inout Canvas) {
        let rows = layout.listRows
        let list = state.list
        let positions = Array(list.rowsInView.prefix(rows.height))
        let gutter = Gutter(photos: positions.map { state.library.photo(at: list.libraryIndex(at: $0)) }, tags: state.tags, columns: layout.columns)
        drawListHeader(state, layout, gutter: gutter, into: &canvas)
        guard list.count > 0 else {
            drawEmptyList(state, in: rows, into: &canvas)
            return
        }
        let visual = state.visualPositions
        for (offset, position) in positions.enumerated() {
            let index = list.libraryIndex(at: position)
            drawRow(
                state.library.photo(at: index), selected: state.selection.contains(index), current: position == list.cursor,
                inVisualRange: visual?.contains(position) ?? false, tags: state.tags, stackCount: list.stackCount(at: position), pair: list.pairBadge(at: position, library: state.library),
                columns: layout.columns, gutter: gutter, in: Rect(x: rows.x, y: rows.y + offset, width: rows.width, height: 1), into: &canvas
            )
        }
        drawScrollBar(top: list.top, visible: rows.height, total: list.count, in: layout.scrollBar, into: &canvas)
    }

    /// The columns between the selection mark and the name, as wide as the rows in view need: tag chips
    /// (up to three, `+` for more) and marks with a slot for a flag, for as many stars as the most-starred
    /// row, and for a label, each only when a row shows one. Nothing but the mark when no row has any.
    struct Gutter: Equatable {
        var chips = 0
        var slots = MarkSlots()

        init(photos: [Photo], tags: TagCatalog, columns: ScreenLayout.Columns) {
            for photo in photos {
                if columns.chips { chips = max(chips, min(3, tags.ordinaryTags(photo.tagIDs).count)) }
                if columns.marks { slots.include(tags.marks(of: photo.tagIDs)) }
            }
        }

        /// Columns from the mark's right to the name: each part after a space, and a space before the name.
        var width: Int {
            let parts = (chips > 0 ? 1 + chips : 0) + (slots.width > 0 ? 1 + slots.width : 0)
            return parts > 0 ? parts + 1 : 0
        }
    }

    private func drawListHeader(_ state: BrowserState, _ layout: ScreenLayout, gutter: Gutter, into canvas: inout Canvas) {
        let rect = layout.listHeader
        let arrow = "▾"
        let sort = state.list.sort
        var x = rect.x + 2 + gutter.width
        let (nameWidth, dateX, sizeX) = columnPositions(layout.columns, gutter: gutter, in: rect)
        x += canvas.draw("Name" + (sort == .filename ? arrow : ""), x: x, y: rect.y, style: theme.label, limit: nameWidth)
        if let dateX { canvas.draw("Taken" + (sort == .captureTime ? arrow : ""), x: dateX, y: rect.y, style: theme.label) }
        if let sizeX { canvas.drawRight("Size" + (sort == .size ? arrow : ""), maxX: sizeX + 9, y: rect.y, style: theme.label, limit: 9) }
        if !layout.columns.date && sort == .captureTime {
            canvas.draw("by time", x: x + 1, y: rect.y, style: theme.dim)
        }
    }

    /// The name column's width and where the date and size columns start, for the columns that fit.
    private func columnPositions(_ columns: ScreenLayout.Columns, gutter: Gutter, in rect: Rect) -> (nameWidth: Int, dateX: Int?, sizeX: Int?) {
        var right = rect.maxX - 1
        var sizeX: Int?, dateX: Int?
        if columns.size {
            right -= 9
            sizeX = right
        }
        if columns.date {
            right -= 18
            dateX = right + 1
        }
        let nameX = rect.x + 2 + gutter.width
        return (max(0, right - nameX), dateX, sizeX)
    }

    private func drawRow(
        _ photo: Photo, selected: Bool, current: Bool, inVisualRange: Bool, tags: TagCatalog, stackCount: Int?, pair: String?,
        columns: ScreenLayout.Columns, gutter: Gutter, in rect: Rect, into canvas: inout Canvas
    ) {
        let look = rowLook(selected: selected, current: current, inVisualRange: inVisualRange)
        let base = look.base
        canvas.fill(rect, style: base)
        canvas.draw(look.markGlyph, x: rect.x + 1, y: rect.y, style: look.mark)
        var x = rect.x + 2
        if gutter.chips > 0 {
            drawChips(tags.ordinaryTags(photo.tagIDs), tags: tags, x: x + 1, y: rect.y, base: base, into: &canvas)
            x += 1 + gutter.chips
        }
        let marks = tags.marks(of: photo.tagIDs)
        if gutter.slots.width > 0 {
            drawMarks(marks, x: x + 1, y: rect.y, base: base, slots: gutter.slots, into: &canvas)
            x += 1 + gutter.slots.width
        }
        if gutter.width > 0 { x += 1 }
        let (nameWidth, dateX, sizeX) = columnPositions(columns, gutter: gutter, in: rect)
        let detail = current || inVisualRange ? base : theme.dim.on(base.background)
        var nameLimit = nameWidth
        if let badge = stackBadge(stackCount, pair: pair), nameWidth > 8 {
            nameLimit -= DisplayWidth.of(badge) + 1
            canvas.drawRight(badge, maxX: x + nameWidth, y: rect.y, style: current ? base : theme.label.on(base.background), limit: nameWidth)
        }
        // Too narrow for the marks column: the marks follow the name, which gives up room for them.
        let trailing = columns.marks || marks.isEmpty ? 0 : min(Self.marksWidth(of: marks) + 1, nameLimit / 2)
        let drawn = canvas.draw(TerminalText.sanitized(photo.filename), x: x, y: rect.y, style: look.name, limit: nameLimit - trailing)
        if trailing > 0 { drawMarks(marks, x: x + drawn + 1, y: rect.y, base: base, limit: trailing - 1, into: &canvas) }
        if let dateX { canvas.draw(Formatting.captureTime(photo.takenAt), x: dateX, y: rect.y, style: detail) }
        if let sizeX { canvas.drawRight(Figures.bytes(photo.bytes), maxX: sizeX + 9, y: rect.y, style: detail, limit: 9) }
    }

    /// Up to three tag chips in the tags' colours (initials in monochrome), then `+` for more.
    private func drawChips(_ tagIDs: [Int], tags: TagCatalog, x: Int, y: Int, base: Style, into canvas: inout Canvas) {
        for (offset, tagID) in tagIDs.prefix(3).enumerated() {
            if offset == 2 && tagIDs.count > 3 {
                canvas.draw("+", x: x + offset, y: y, style: base)
                break
            }
            if theme.depth == .monochrome {
                let initial = tags.tag(id: tagID).flatMap { TerminalText.sanitized($0.name).first }.map(String.init) ?? "?"
                canvas.draw(initial, x: x + offset, y: y, style: base, limit: 1)
            } else {
                let color = theme.tagColor(tags.color(id: tagID))
                canvas.draw("●", x: x + offset, y: y, style: Style(foreground: color, background: base.background))
            }
        }
    }
}
