import PhotoImaging

/// A histogram in cells: luminance as a block chart over the rows it is given, the three channels as a
/// row each beneath it when there is room (coloured, or named R, G and B in monochrome), and the shares
/// clipped at each end on the last row, shadows left and highlights right as on a camera's screen.
/// Eighths of a cell, from empty to full, made once: every column of a chart reads them.
enum BlockEighths {
    static let rising = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
}

extension Drawing {
    func drawHistogram(_ histogram: Histogram, warnAbove threshold: Double, in rect: Rect, into canvas: inout Canvas, background: TerminalColor? = nil) {
        guard rect.width >= 12, rect.height >= 2 else { return }
        func on(_ style: Style) -> Style { background.map { style.on($0) } ?? style }
        let monochrome = theme.depth == .monochrome
        // The last row: the clipped shares.
        let last = rect.maxY - 1
        let shadows = "▼ \(Self.share(histogram.clippedShadows))", highlights = "▲ \(Self.share(histogram.clippedHighlights))"
        canvas.draw(shadows, x: rect.x, y: last, style: on(histogram.clippedShadows > threshold ? theme.warning : theme.dim))
        canvas.drawRight(highlights, maxX: rect.maxX, y: last, style: on(histogram.clippedHighlights > threshold ? theme.warning : theme.dim), limit: rect.width)
        let chart = Rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height - 1)
        // The channels get a row each once luminance keeps two.
        let channels: [(name: String, bins: [Int], style: Style)] = chart.height >= 5
            ? [("R", histogram.red, theme.chartRed), ("G", histogram.green, theme.chartGreen), ("B", histogram.blue, theme.chartBlue)] : []
        let gutter = monochrome && !channels.isEmpty ? 2 : 0
        let bars = Rect(x: chart.x + gutter, y: chart.y, width: chart.width - gutter, height: chart.height - channels.count)
        drawBins(histogram.luminance, in: bars, style: on(theme.chartBar), into: &canvas)
        for (row, channel) in channels.enumerated() {
            let y = bars.maxY + row
            if gutter > 0 { canvas.draw(channel.name, x: chart.x, y: y, style: on(theme.dim)) }
            drawBins(channel.bins, in: Rect(x: bars.x, y: y, width: bars.width, height: 1), style: on(channel.style), into: &canvas)
        }
    }

    /// 256 bins as columns of eighth blocks over `rect`, scaled to the tallest column away from the two
    /// ends: a blown sky's spike at 255 would flatten the rest, so an end that passes it is drawn full.
    private func drawBins(_ bins: [Int], in rect: Rect, style: Style, into canvas: inout Canvas) {
        guard rect.width > 0, rect.height > 0 else { return }
        let columns = (0..<rect.width).map { column in
            bins[(column * 256 / rect.width)..<((column + 1) * 256 / rect.width)].reduce(0, +)
        }
        let inner = columns.count > 2 ? columns.dropFirst().dropLast().max() ?? 0 : columns.max() ?? 0
        let tallest = max(1, inner > 0 ? inner : columns.max() ?? 1)
        let eighths = rect.height * 8
        for (column, value) in columns.enumerated() {
            var height = min(eighths, Int((Double(value) / Double(tallest) * Double(eighths)).rounded(.up)))
            if value > 0 { height = max(1, height) }
            for row in 0..<rect.height {
                let filled = min(8, max(0, height - row * 8))
                canvas.set(x: rect.x + column, y: rect.maxY - 1 - row, text: BlockEighths.rising[filled], style: style)
            }
        }
    }

    /// "2.4%", "0.1%", "<0.1%" for a share above nothing that rounds to nothing, "0%" for none.
    static func share(_ fraction: Double) -> String {
        if fraction <= 0 { return "0%" }
        let percent = fraction * 100
        if percent < 0.05 { return "<0.1%" }
        return "\(percent.formatted(.number.precision(.fractionLength(percent < 10 ? 1 : 0))))%"
    }
}
