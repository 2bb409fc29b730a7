import PhotoBrowser
import PhotoPickFormats

/// The full queue: a row per item with its state, a bar, bytes, speed and time left or the reason it
/// failed, and the panel's keys.
struct QueuePanelView: View {
    let context: ViewContext
    let state: BrowserState
    let cursor: Int
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let queue = state.downloads
        let keys = context.keymap
        let title = "Downloads · \(queue.concurrency) at once · \(state.downloadVariant.rawValue) → \(context.abbreviate(state.downloadDirectory.path))"
        canvas.drawBox(rect, style: theme.border, title: TerminalText.sanitized(title), titleStyle: theme.title)
        let inner = rect.inset(1)
        guard inner.height >= 2 else { return }
        let footer = "\(keys.hint(.queuePause)) pause/resume · \(keys.hint(.queueRetry)) retry · \(keys.hint(.queueCancel)) cancel · \(keys.hint(.concurrencyUp))/\(keys.hint(.concurrencyDown)) at once · \(keys.hint(.clearFinished)) clear done · esc back"
        canvas.draw(footer, x: inner.x + 1, y: inner.maxY - 1, style: theme.hint, limit: inner.width - 2)
        let rows = Rect(x: inner.x, y: inner.y, width: inner.width, height: inner.height - 1)
        guard !queue.items.isEmpty else {
            canvas.draw("Nothing queued. \(keys.hint(.download)) downloads the selection or the current photo.", x: rows.x + 1, y: rows.y, style: theme.dim, limit: rows.width - 2)
            return
        }
        let cursor = min(cursor, queue.items.count - 1)
        let top = max(0, min(cursor - rows.height / 2, queue.items.count - rows.height))
        for (offset, item) in queue.items.dropFirst(top).prefix(rows.height).enumerated() {
            let row = Rect(x: rows.x, y: rows.y + offset, width: rows.width, height: 1)
            drawQueueItem(item, current: top + offset == cursor, in: row, into: &canvas)
        }
    }

    private func drawQueueItem(_ item: DownloadItem, current: Bool, in rect: Rect, into canvas: inout Canvas) {
        let base = current ? theme.currentRow : theme.text
        canvas.fill(rect, style: base)
        let monochrome = theme.depth == .monochrome
        let (symbol, symbolStyle): (String, Style) = switch item.status {
        case .queued: (monochrome ? "." : "·", theme.dim)
        case .running: (monochrome ? ">" : "↓", theme.info)
        case .paused: (monochrome ? "=" : "‖", theme.warning)
        case .done: (monochrome ? "+" : "✓", theme.selectedMark)
        case .skipped: ("=", theme.dim)
        case .failed: (monochrome ? "!" : "✗", theme.warning)
        }
        canvas.draw(symbol, x: rect.x + 1, y: rect.y, style: current ? base : symbolStyle.on(base.background))
        let nameWidth = max(8, min(40, rect.width / 3))
        canvas.draw(TerminalText.sanitized(item.filename), x: rect.x + 3, y: rect.y, style: base, limit: nameWidth)
        var x = rect.x + 4 + nameWidth
        let detail: String
        switch item.status {
        case .failed(let reason): detail = TerminalText.sanitized(reason)
        case .skipped: detail = "already there: \(TerminalText.sanitized(savedName(item)))"
        case .done: detail = "\(Figures.bytes(item.expectedBytes))  saved as \(TerminalText.sanitized(savedName(item)))"
        default:
            let fraction = Formatting.fraction(item.receivedBytes, of: item.expectedBytes)
            let barWidth = min(20, max(0, rect.maxX - x - 34))
            if barWidth >= 5 {
                canvas.drawBar(x: x, y: rect.y, width: barWidth, fraction: fraction, theme: theme)
                x += barWidth + 1
            }
            var text = "\(Figures.bytes(item.receivedBytes))/\(Figures.bytes(item.expectedBytes))"
            if item.status == .running {
                let speed = Formatting.speed(item.bytesPerSecond)
                if !speed.isEmpty { text += "  \(speed)" }
                text += "  ETA \(Figures.clock(seconds: item.secondsRemaining))"
            } else if item.status == .paused {
                text += "  paused"
            }
            detail = text
        }
        let detailStyle = current ? base : (item.status.failure != nil ? theme.warning : theme.dim)
        canvas.draw(detail, x: x, y: rect.y, style: detailStyle, limit: rect.maxX - x - 1)
    }

    /// The name the file was saved under, which may differ from the photo's (` (2)`).
    private func savedName(_ item: DownloadItem) -> String {
        item.resultPath.flatMap { $0.split(separator: "/").last.map(String.init) } ?? item.filename
    }
}
