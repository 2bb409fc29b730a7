import PhotoBrowser
import PhotoPickKit

extension Screen {
    /// The side pane: the current photo's name, the area the preview is drawn in (outlined at the
    /// photo's aspect ratio until then), and its metadata rows.
    func drawSidePane(_ state: BrowserState, in rect: Rect, into canvas: inout Canvas) {
        for y in rect.y..<rect.maxY { canvas.draw("│", x: rect.x, y: y, style: theme.border) }
        let inner = Rect(x: rect.x + 2, y: rect.y, width: rect.width - 3, height: rect.height)
        guard let photo = state.currentPhoto, inner.width > 4 else { return }
        canvas.draw(TerminalText.sanitized(photo.filename), x: inner.x, y: inner.y, style: theme.title, limit: inner.width)
        let previewHeight = min(inner.height * 2 / 5, max(4, inner.width / 2))
        let preview = Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: previewHeight)
        drawPreviewArea(photo, in: preview, into: &canvas)
        let rowsArea = Rect(x: inner.x, y: preview.maxY + 1, width: inner.width, height: inner.maxY - preview.maxY - 1)
        drawMetadata(context.presenter.rows(for: photo, tags: state.tags), in: rowsArea, labelWidth: 10, into: &canvas)
    }

    /// The photo's frame at its aspect ratio, centred, with its pixel size inside; cells are about
    /// twice as tall as wide.
    private func drawPreviewArea(_ photo: Photo, in rect: Rect, into canvas: inout Canvas) {
        guard rect.height >= 3, rect.width >= 6 else { return }
        var width = rect.width, height = rect.height
        if let pixelWidth = photo.width, let pixelHeight = photo.height, pixelWidth > 0, pixelHeight > 0 {
            // Columns per row that keep the photo's shape.
            let aspect = Double(pixelWidth) / Double(pixelHeight) * 2
            if Double(rect.width) / Double(rect.height) > aspect {
                width = max(6, Int((Double(rect.height) * aspect).rounded()))
            } else {
                height = max(3, Int((Double(rect.width) / aspect).rounded()))
            }
        }
        let frame = rect.centred(width: min(width, rect.width), height: min(height, rect.height))
        canvas.drawBox(frame, style: theme.border)
        let size = photo.width.flatMap { w in photo.height.map { "\(w.formatted()) × \($0.formatted())" } } ?? "size unknown"
        let label = frame.width - 2 >= DisplayWidth.of(size) ? size : ""
        canvas.draw(label, x: frame.x + (frame.width - DisplayWidth.of(label)) / 2, y: frame.y + frame.height / 2, style: theme.dim)
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
                    if y >= rect.y {
                        let color = Style(foreground: theme.tagColor(chip.color))
                        let dot = theme.depth == .monochrome ? "#" : "●"
                        canvas.draw(dot, x: x, y: y, style: color)
                        canvas.draw(name, x: x + 1, y: y, style: theme.text, limit: rect.maxX - x - 1)
                    }
                    x += width
                }
                y += 1
                continue
            }
            let maxLines = row.label == "Description" ? max(1, rect.maxY - y) : 2
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
        let rows = context.presenter.rows(for: photo, tags: state.tags)
        drawMetadata(rows, in: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height - 1), labelWidth: 12, scroll: scroll, into: &canvas)
        canvas.draw("j/k scroll · esc back", x: inner.x + 1, y: inner.maxY - 1, style: theme.hint, limit: inner.width - 2)
    }
}
