import PhotoBrowser

/// Every metadata row of the current photo, full width, scrollable.
struct DetailsView: View {
    let context: ViewContext
    let state: BrowserState
    let scroll: Int
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        guard let photo = state.currentPhoto else { return }
        canvas.drawBox(rect, style: theme.border, title: TerminalText.sanitized(photo.filename), titleStyle: theme.title)
        let inner = rect.inset(1)
        let rows = context.presenter.rows(for: photo, tags: state.tags, focus: state.list.currentIndex.flatMap(state.focusFacts(at:)), pair: state.currentPairPartner)
        drawMetadata(rows, in: Rect(x: inner.x + 1, y: inner.y, width: inner.width - 2, height: inner.height - 1), labelWidth: 12, scroll: scroll, into: &canvas)
        canvas.draw("j/k scroll · esc back", x: inner.x + 1, y: inner.maxY - 1, style: theme.hint, limit: inner.width - 2)
    }
}
