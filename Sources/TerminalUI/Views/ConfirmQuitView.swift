import PhotoBrowser

/// Asked on quit while downloads run or tag edits are unsent.
struct ConfirmQuitView: View {
    let context: ViewContext
    let state: BrowserState
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        var work: [String] = []
        let pending = state.downloads.totals.pending
        if pending > 0 { work.append("\(pending) download\(pending == 1 ? " is" : "s are") not finished") }
        let unsent = state.unsentTagDeltas
        if unsent > 0 {
            work.append("\(unsent) tag edit\(unsent == 1 ? " is" : "s are") not sent yet")
        }
        let edits = state.unsentPhotoEdits
        if edits > 0 { work.append("\(edits) field edit\(edits == 1 ? " is" : "s are") not sent yet") }
        if let purge = state.purge {
            work.append("a purge is deleting photos (\(purge.deleted) of \(purge.total) so far; the rest stay, and the next start says which)")
        }
        let text = work.isEmpty
            ? "Everything has finished meanwhile; nothing is left for next time."
            : work.joined(separator: "; ") + ". Unfinished work resumes the next time photopick starts."
        let inner = drawDialog(width: min(rect.width, 60), height: 9, title: "Quit?", in: rect, into: &canvas)
        for (offset, line) in Formatting.wrap(text, width: inner.width - 2, maxLines: max(1, inner.height - 2)).enumerated() {
            canvas.draw(line, x: inner.x + 1, y: inner.y + offset, style: theme.overlay)
        }
        drawDialogHint("y quit · n stay", in: inner, into: &canvas)
    }
}
