import PhotoBrowser
import PhotoPickFormats

/// The queue strip: one line with items running and queued, a bar for the whole queue, speed and
/// time left.
struct QueueStripView: View {
    let context: ViewContext
    let state: BrowserState
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let totals = state.downloads.totals
        var parts: [String] = []
        if totals.running > 0 { parts.append("\(totals.running) running") }
        if totals.queued > 0 { parts.append("\(totals.queued) queued") }
        if totals.paused > 0 { parts.append("\(totals.paused) paused") }
        if totals.failed > 0 { parts.append("\(totals.failed) failed") }
        let finished = totals.done + totals.skipped
        if finished > 0 { parts.append("\(finished) done") }
        let monochrome = theme.depth == .monochrome
        var x = rect.x + canvas.draw(" " + (monochrome ? "v " : "↓ ") + parts.joined(separator: " · ") + "  ", x: rect.x, y: rect.y, style: totals.failed > 0 ? theme.warning : theme.info, limit: rect.width)
        let fraction = Formatting.fraction(totals.receivedBytes, of: totals.expectedBytes)
        var tail = "\(Int((fraction * 100).rounded(.down)))%"
        if totals.running > 0 {
            let speed = Formatting.speed(totals.bytesPerSecond)
            if !speed.isEmpty { tail += "  \(speed)" }
            tail += "  ETA \(Figures.clock(seconds: totals.secondsRemaining(budget: state.account.rateLimit, now: context.now)))"
        }
        tail += "  \(context.keymap.hint(.queuePanel)) queue "
        let barWidth = min(30, rect.maxX - x - DisplayWidth.of(tail) - 2)
        if barWidth >= 5 {
            canvas.drawBar(x: x, y: rect.y, width: barWidth, fraction: fraction, theme: theme)
            x += barWidth + 1
        }
        canvas.draw(tail, x: x, y: rect.y, style: theme.hint, limit: rect.maxX - x)
    }
}
