import PhotoBrowser

/// A picker in a box: the query when it takes one, then its entries with the cursor highlighted.
struct PickerView: View {
    let context: ViewContext
    let picker: UIState.Picker
    let state: BrowserState
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let entries = picker.entries(in: state)
        let title: String, hint: String
        switch picker.kind {
        case .tags:
            let targets = state.tagTargetCount
            title = "Tag \(targets == 1 ? "this photo" : "\(targets.formatted()) photos")"
            hint = "type to find · enter toggle · esc close"
        case .tagFilter:
            let mode: String = if case .all = state.list.filter.tags { "all of" } else { "any of" }
            title = "Show photos with \(mode) these tags"
            hint = "space/enter toggle · a any/all · x clear · esc close"
        case .variant:
            title = "Download which variant"
            hint = "enter choose · esc close"
        case .manageTags:
            title = "Manage tags"
            hint = "n new · r rename · c colour · x delete · esc close"
        case .copy:
            title = "Copy to the clipboard"
            hint = "enter copy · esc close"
        case .savedSearches:
            title = "Saved searches"
            hint = "1–9 or enter filter · esc close"
        }
        let height = min(rect.height, max(entries.count, 1) + (picker.takesQuery ? 5 : 3))
        let background = theme.overlay.background
        let inner = drawDialog(width: min(rect.width, 60), height: height, title: title, in: rect, into: &canvas)
        guard inner.height >= 2 else { return }
        var y = inner.y
        if picker.takesQuery {
            canvas.drawField("> ", picker.query.text, x: inner.x + 1, y: y, style: theme.input.on(background), width: inner.width - 2)
            y += 2
        }
        let visible = inner.maxY - 1 - y
        if entries.isEmpty {
            let empty = switch picker.kind {
            case .tags: "No tags yet: type a name to create one."
            case .savedSearches: "None yet: add a [searches] table to the config file."
            default: "No tags yet."
            }
            canvas.draw(empty, x: inner.x + 1, y: y, style: theme.dim.on(background), limit: inner.width - 2)
        }
        let cursor = min(picker.cursor, max(0, entries.count - 1))
        let top = max(0, min(cursor - visible + 1, entries.count - visible))
        for (offset, entry) in entries.dropFirst(top).prefix(max(0, visible)).enumerated() {
            let current = top + offset == cursor
            let row = Rect(x: inner.x, y: y + offset, width: inner.width, height: 1)
            let base = current ? theme.currentRow : theme.overlay
            canvas.fill(row, style: base)
            var x = row.x + 1
            if !entry.mark.isEmpty { x += canvas.draw(entry.mark + " ", x: x, y: row.y, style: base) }
            if case .tag = entry.choice {
                let dot = theme.depth == .monochrome ? "" : "● "
                x += canvas.draw(dot, x: x, y: row.y, style: Style(foreground: theme.tagColor(entry.color), background: base.background))
            }
            // The title comes first; the detail shows only where it fits whole.
            let room = row.maxX - 1 - x - DisplayWidth.of(entry.title) - 2
            let detailWidth = DisplayWidth.of(entry.detail) <= room ? DisplayWidth.of(entry.detail) : 0
            x += canvas.draw(entry.title, x: x, y: row.y, style: base, limit: row.maxX - 1 - x)
            if detailWidth > 0 {
                canvas.drawRight(entry.detail, maxX: row.maxX - 1, y: row.y, style: current ? base : theme.dim.on(background), limit: detailWidth)
            }
        }
        drawDialogHint(hint, in: inner, into: &canvas)
    }
}
