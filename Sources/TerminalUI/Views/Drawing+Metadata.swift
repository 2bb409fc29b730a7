import PhotoBrowser

/// Metadata rows, as the side pane and the details view draw them.
extension Drawing {
    /// Label and value rows; long values wrap while there is room, tags show as coloured chips.
    /// The lines `rows` take in a column `width` wide, wrapped values and chips included, counted up to
    /// `limit` (more than that is as good as any more): drawn into a canvas of their own that high, so
    /// the count is the drawing's, not a second copy of its rules.
    func metadataLines(_ rows: [MetadataRow], width: Int, labelWidth: Int, limit: Int) -> Int {
        let height = max(1, limit + 1)
        var scratch = Canvas(width: width, height: height)
        return drawMetadata(rows, in: Rect(x: 0, y: 0, width: width, height: height), labelWidth: labelWidth, into: &scratch)
    }

    /// Draws the rows from the top of `rect` (less `scroll` lines); returns the lines they took.
    @discardableResult
    func drawMetadata(_ rows: [MetadataRow], in rect: Rect, labelWidth: Int, scroll: Int = 0, into canvas: inout Canvas) -> Int {
        var y = rect.y - scroll
        let valueX = rect.x + labelWidth + 1
        let valueWidth = rect.maxX - valueX
        guard valueWidth > 2 else { return 0 }
        for row in rows {
            guard y < rect.maxY else { break }
            if y >= rect.y { canvas.draw(row.label, x: rect.x, y: y, style: theme.label, limit: labelWidth) }
            if let marks = row.marks {
                if y >= rect.y {
                    let drawn = drawMarks(marks, x: valueX, y: y, base: .plain, limit: valueWidth, into: &canvas)
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
        return y - (rect.y - scroll)
    }
}
