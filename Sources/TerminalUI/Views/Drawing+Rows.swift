import PhotoBrowser

/// How a photo's row (or grid tile name) looks: its background, the selection mark and the name.
struct RowLook {
    var base: Style
    var mark: Style
    var markGlyph: String
    var name: Style
}

/// What the list and the grid draw alike: a row's look, the scroll bar, and the empty list's message.
extension Drawing {
    /// The look of a row: current, in the visual range, selected, or none of these.
    func rowLook(selected: Bool, current: Bool, inVisualRange: Bool) -> RowLook {
        var base = theme.text
        if inVisualRange { base = theme.visualRow }
        if current { base = theme.currentRow }
        var mark = selected ? theme.selectedMark : base
        mark.background = base.background
        if current { mark.attributes.formUnion(base.attributes) }
        let monochrome = theme.depth == .monochrome
        var name = selected && !current ? theme.selectedText.on(base.background) : base
        if selected && monochrome { name.attributes.insert(.bold) }
        return RowLook(base: base, mark: mark, markGlyph: selected ? (monochrome ? "*" : "✓") : " ", name: name)
    }

    /// A scroll bar for `visible` of `total` rows from `top`, when they do not all fit.
    func drawScrollBar(top: Int, visible: Int, total: Int, in rect: Rect, into canvas: inout Canvas) {
        guard rect.height > 0, total > visible else { return }
        let thumbHeight = max(1, rect.height * visible / total)
        let thumbTop = min(rect.height - thumbHeight, (rect.height - thumbHeight) * top / max(1, total - visible))
        for row in 0..<rect.height {
            let inThumb = row >= thumbTop && row < thumbTop + thumbHeight
            canvas.draw(inThumb ? "█" : "│", x: rect.x, y: rect.y + row, style: inThumb ? theme.label : theme.border)
        }
    }

    /// Why the list is empty: nothing matches, nothing loaded yet, or loading failed.
    func drawEmptyList(_ state: BrowserState, in rect: Rect, into canvas: inout Canvas) {
        let message: String
        if state.library.count > 0 {
            message = "No photos match the filter; \(context.keymap.hint(.cancel)) or \(context.keymap.hint(.filter)) then esc clears it."
        } else {
            switch state.loading.phase {
            case .notStarted, .loading: message = "Loading photos…"
            case .complete: message = "This library has no photos yet."
            case .failed(let reason): message = "Could not load photos: \(TerminalText.sanitized(reason))"
            case .cancelled: message = "Loading paused; \(context.keymap.hint(.reload)) resumes it."
            }
        }
        let lines = Formatting.wrap(message, width: max(1, rect.width - 4), maxLines: max(1, rect.height - 1))
        for (offset, line) in lines.enumerated() {
            canvas.draw(line, x: rect.x + 2, y: rect.y + 1 + offset, style: theme.dim)
        }
    }
}
