import PhotoBrowser
import PhotoPickFormats

/// `I`: the photos listed, in charts drawn from the catalogue alone: photos per day, month or year over
/// the whole span (the finest step whose bars fit the width), then cameras, lenses, focal lengths, ISO,
/// aperture, ratings, flags and labels as rows of bars, in as many columns as the width holds. One bar
/// is chosen (j/k, h/l); Enter filters the list to it, so the charts are a way through a large library.
struct StatsView: View {
    /// The figures shown (taken when the view opened) and the bar chosen, by its place in `targets`.
    struct Cursor: Sendable, Equatable {
        var stats: LibraryStats
        var chosen = 0
    }

    let context: ViewContext
    let cursor: Cursor
    let rect: Rect

    /// Where each part goes for a body: computed once, read by the drawing and by the keys.
    struct Layout: Equatable {
        var step = LibraryStats.Step.day
        var timeline: [LibraryStats.Bar] = []
        var chart = Rect(x: 0, y: 0, width: 0, height: 0)
        var barWidth = 1
        struct Section: Equatable {
            var title: String
            var rect: Rect
            var bars: [LibraryStats.Bar]
            var hidden: Int
        }
        var sections: [Section] = []
        /// Every bar that can be chosen, in the order j walks them: the timeline's, then each section's.
        var targets: [LibraryStats.Bar] = []
    }

    static let gutter = 7

    static func layout(_ stats: LibraryStats, in rect: Rect) -> Layout {
        var layout = Layout()
        guard rect.width >= 30, rect.height >= 8 else { return layout }
        let chartWidth = rect.width - gutter - 1
        layout.step = stats.step(fitting: chartWidth)
        // Years past the width (a clock once reset to 1970) leave the oldest out, so every bar shown can
        // be chosen and none can that is not shown.
        layout.timeline = Array(stats.timeline(layout.step).suffix(chartWidth))
        layout.barWidth = layout.timeline.isEmpty ? 1 : max(1, min(4, chartWidth / layout.timeline.count))
        let chartHeight = max(3, min(12, (rect.height - 4) * 2 / 5))
        layout.chart = Rect(x: rect.x + gutter, y: rect.y + 1, width: min(chartWidth, layout.timeline.count * layout.barWidth), height: chartHeight)
        layout.targets = layout.timeline
        // Below the timeline and its axis: the sections, filled column by column.
        let top = layout.chart.maxY + 2, bottom = rect.maxY - 1
        let columns = rect.width >= 150 ? 3 : rect.width >= 70 ? 2 : 1
        let columnWidth = rect.width / columns
        let sections: [(String, [LibraryStats.Bar])] = [
            ("Cameras", stats.cameras), ("Lenses", stats.lenses), ("Focal lengths", stats.focalLengths), ("ISO", stats.isos),
            ("Aperture", stats.apertures), ("Ratings", stats.ratings), ("Flags", stats.flags), ("Labels", stats.labels),
        ].filter { !$0.1.isEmpty }
        var column = 0, y = top
        for (title, bars) in sections {
            // A section that does not fit whole starts the next column, while there is one.
            if bottom - y < bars.count + 1, y > top, column + 1 < columns {
                column += 1
                y = top
            }
            let rows = bottom - y - 1
            guard rows >= 1 else { break }
            let shown = bars.count <= rows ? bars : Array(bars.prefix(rows - 1))
            let height = 1 + shown.count + (shown.count < bars.count ? 1 : 0)
            let area = Rect(x: rect.x + column * columnWidth, y: y, width: columnWidth - 2, height: height)
            layout.sections.append(Layout.Section(title: title, rect: area, bars: shown, hidden: bars.count - shown.count))
            layout.targets += shown.filter { $0.term != nil }
            y += height + 1
        }
        return layout
    }

    func draw(in canvas: inout Canvas) {
        canvas.fill(rect, style: .plain)
        canvas.coverImages(rect)
        let stats = cursor.stats, layout = Self.layout(stats, in: rect)
        guard rect.width >= 30, rect.height >= 8 else {
            canvas.draw("Too small for charts: widen the window.", x: rect.x + 1, y: rect.y, style: theme.dim, limit: rect.width - 1)
            return
        }
        let chosen = layout.targets.indices.contains(cursor.chosen) ? layout.targets[cursor.chosen] : nil
        // The title: what is counted, and the step of the timeline.
        let span = layout.timeline.first.map { first in " · per \(layout.step.rawValue), \(first.label) to \(layout.timeline.last!.label)" } ?? ""
        let undated = stats.undated > 0 ? " · \(stats.undated.formatted()) undated" : ""
        canvas.draw("\(Figures.count(stats.summary.photos, "photo")) listed\(span)\(undated)", x: rect.x + 1, y: rect.y, style: theme.title, limit: rect.width - 2)
        drawTimeline(layout, chosen: chosen, into: &canvas)
        for section in layout.sections { drawSection(section, chosen: chosen, into: &canvas) }
        // The last row: the bar chosen and what Enter does, else the keys.
        let last = rect.maxY - 1
        if let chosen, let term = chosen.term {
            let text = "▸ \(TerminalText.sanitized(chosen.label)) · \(Figures.count(chosen.count, "photo")) · enter lists them (\(TerminalText.sanitized(term)))"
            canvas.draw(text, x: rect.x + 1, y: last, style: theme.label, limit: rect.width - 2)
        }
        let hint = "j/k choose · enter filter · esc back"
        if rect.width - DisplayWidth.of(hint) > 60 { canvas.drawRight(hint, maxX: rect.maxX - 1, y: last, style: theme.hint, limit: DisplayWidth.of(hint)) }
    }

    /// Photos per step as columns of eighth blocks, the scale in the gutter, the first and last steps under it.
    private func drawTimeline(_ layout: Layout, chosen: LibraryStats.Bar?, into canvas: inout Canvas) {
        let chart = layout.chart, bars = layout.timeline
        guard !bars.isEmpty, chart.height > 0 else {
            canvas.draw("No photo listed has a capture time.", x: rect.x + 1, y: rect.y + 2, style: theme.dim, limit: rect.width - 2)
            return
        }
        let tallest = max(1, bars.map(\.count).max() ?? 1)
        canvas.drawRight(tallest.formatted(), maxX: chart.x - 1, y: chart.y, style: theme.dim, limit: Self.gutter - 1)
        canvas.drawRight("0", maxX: chart.x - 1, y: chart.maxY - 1, style: theme.dim, limit: Self.gutter - 1)
        let eighths = chart.height * 8
        for (position, bar) in bars.enumerated() {
            var height = Int((Double(bar.count) / Double(tallest) * Double(eighths)).rounded(.up))
            if bar.count > 0 { height = max(1, height) }
            let style = bar == chosen ? theme.chartChosen : theme.chartBar
            for column in 0..<layout.barWidth {
                // A gap between wide bars, so each reads as one.
                if layout.barWidth > 2, column == layout.barWidth - 1 { continue }
                let x = chart.x + position * layout.barWidth + column
                for row in 0..<chart.height {
                    let filled = min(8, max(0, height - row * 8))
                    let glyph = filled == 0 && bar == chosen && row == 0 ? "▁" : BlockEighths.rising[filled]
                    canvas.set(x: x, y: chart.maxY - 1 - row, text: glyph, style: style)
                }
            }
        }
        // The axis: the first and the last step's names, and the chosen one's under its bar when room.
        let axis = chart.maxY
        canvas.draw(bars.first!.label, x: chart.x, y: axis, style: theme.dim)
        if bars.count > 1 { canvas.drawRight(bars.last!.label, maxX: chart.maxX, y: axis, style: theme.dim, limit: chart.width) }
    }

    private func drawSection(_ section: Layout.Section, chosen: LibraryStats.Bar?, into canvas: inout Canvas) {
        let area = section.rect
        canvas.draw(section.title, x: area.x + 1, y: area.y, style: theme.title, limit: area.width - 1)
        let tallest = max(1, section.bars.map(\.count).max() ?? 1)
        let labelWidth = min(max(8, area.width * 2 / 5), section.bars.map { DisplayWidth.of($0.label) }.max() ?? 8)
        let countWidth = max(1, section.bars.map { $0.count.formatted().count }.max() ?? 1)
        let barWidth = max(1, area.width - labelWidth - countWidth - 4)
        for (row, bar) in section.bars.enumerated() {
            let y = area.y + 1 + row
            let isChosen = bar == chosen && bar.term != nil
            canvas.draw(TerminalText.sanitized(bar.label), x: area.x + 1, y: y, style: isChosen ? theme.chartChosen : bar.term == nil ? theme.dim : theme.text, limit: labelWidth)
            let eighths = Int((Double(bar.count) / Double(tallest) * Double(barWidth * 8)).rounded(.up))
            let full = eighths / 8, part = eighths % 8
            let text = String(repeating: "█", count: full) + (part > 0 ? Self.horizontalEighths[part] : "")
            canvas.draw(text.isEmpty && bar.count > 0 ? "▏" : text, x: area.x + 2 + labelWidth, y: y, style: isChosen ? theme.chartChosen : theme.chartBar, limit: barWidth)
            canvas.drawRight(bar.count.formatted(), maxX: area.maxX, y: y, style: isChosen ? theme.chartChosen : theme.dim, limit: countWidth)
        }
        if section.hidden > 0 {
            canvas.draw("+\(section.hidden.formatted()) more", x: area.x + 1, y: area.y + 1 + section.bars.count, style: theme.dim, limit: area.width - 1)
        }
    }

    /// Eighths of a cell's width, from one to seven.
    static let horizontalEighths = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"]
}
