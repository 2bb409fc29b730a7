import Foundation
import PhotoBrowser
import PhotoPickFormats

/// Text the views share: dates, durations, bars.
enum Formatting {
    /// `2021-05-03 14:22` in local time, made without a formatter so a frame of rows stays cheap.
    static func captureTime(_ date: Date?) -> String {
        guard let date else { return "—" }
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "—" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday)) \(two(parts.tm_hour)):\(two(parts.tm_min))"
    }

    private static func two(_ value: Int32) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// `12.3 MB/s`.
    static func speed(_ bytesPerSecond: Double?) -> String {
        guard let bytesPerSecond, bytesPerSecond.isFinite, bytesPerSecond > 0 else { return "" }
        return Figures.bytes(Int64(bytesPerSecond)) + "/s"
    }

    /// How far, as a fraction from 0 to 1.
    static func fraction(_ done: Int64, of total: Int64) -> Double {
        total > 0 ? min(1, max(0, Double(done) / Double(total))) : 0
    }

    /// Lines of at most `width` columns, broken at spaces where possible.
    static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = [], line = "", lineWidth = 0, lastSpace: String.Index?
        for character in text {
            let glyphWidth = TerminalGlyph(character).width
            if lineWidth + glyphWidth > width {
                if let space = lastSpace, character != " " {
                    lines.append(String(line[..<space]))
                    line = String(line[line.index(after: space)...])
                } else {
                    lines.append(line)
                    line = ""
                }
                lineWidth = DisplayWidth.of(line)
                lastSpace = nil
                if lines.count == maxLines { break }
                if character == " " && line.isEmpty { continue }
            }
            if character == " " { lastSpace = line.endIndex }
            line.append(character)
            lineWidth += glyphWidth
        }
        if lines.count < maxLines, !line.isEmpty { lines.append(line) }
        if lines.count == maxLines, DisplayWidth.of(text) > lines.reduce(0, { $0 + DisplayWidth.of($1) }) + lines.count,
           var last = lines.popLast() {
            while DisplayWidth.of(last) > width - 1, !last.isEmpty { last.removeLast() }
            lines.append(last + "…")
        }
        return lines
    }
}

extension Canvas {
    /// A progress bar of `width` columns: filled blocks for what is done, shade for the rest.
    mutating func drawBar(x: Int, y: Int, width: Int, fraction: Double, theme: Theme) {
        guard width > 0 else { return }
        let filled = Int((Double(width) * fraction).rounded(.down))
        let done = theme.depth == .monochrome ? "#" : "█"
        let todo = theme.depth == .monochrome ? "." : "░"
        draw(String(repeating: done, count: filled), x: x, y: y, style: theme.barDone)
        draw(String(repeating: todo, count: width - filled), x: x + filled, y: y, style: theme.barTodo)
    }

    /// Typed text after a prompt, with a block cursor after it; typed text is sanitised like server text.
    /// Returns the columns used by the prompt and text.
    @discardableResult
    mutating func drawField(_ prompt: String, _ text: String, x: Int, y: Int, style: Style, width: Int) -> Int {
        let used = draw(prompt + TerminalText.sanitized(text), x: x, y: y, style: style, limit: width - 1)
        draw(" ", x: x + used, y: y, style: Style(attributes: [.reverse]))
        return used
    }

    /// A box outline with an optional title on its top edge.
    mutating func drawBox(_ rect: Rect, style: Style, title: String? = nil, titleStyle: Style? = nil) {
        guard rect.width >= 2, rect.height >= 2 else { return }
        let horizontal = String(repeating: "─", count: rect.width - 2)
        draw("┌" + horizontal + "┐", x: rect.x, y: rect.y, style: style)
        draw("└" + horizontal + "┘", x: rect.x, y: rect.maxY - 1, style: style)
        for y in rect.y + 1..<rect.maxY - 1 {
            draw("│", x: rect.x, y: y, style: style)
            draw("│", x: rect.maxX - 1, y: y, style: style)
        }
        if let title, rect.width > 6 {
            draw(" \(title) ", x: rect.x + 2, y: rect.y, style: titleStyle ?? style, limit: rect.width - 4)
        }
    }
}
