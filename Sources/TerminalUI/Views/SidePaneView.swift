import PhotoBrowser

/// The side pane: the current photo's name, its preview, and its metadata rows.
struct SidePaneView: View {
    let context: ViewContext
    let state: BrowserState
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        for y in rect.y..<rect.maxY { canvas.draw("│", x: rect.x, y: y, style: theme.border) }
        let inner = Self.sidePaneInner(rect)
        guard let photo = state.currentPhoto, inner.width > 4 else { return }
        canvas.draw(TerminalText.sanitized(photo.filename), x: inner.x, y: inner.y, style: theme.title, limit: inner.width)
        let preview = Self.sidePanePreview(in: rect)
        drawPreview(photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height, in: preview, into: &canvas)
        var rowsArea = Rect(x: inner.x, y: preview.maxY + 1, width: inner.width, height: inner.maxY - preview.maxY - 1)
        let focus = state.list.currentIndex.flatMap(state.focusFacts(at:))
        let rows = context.presenter.rows(for: photo, tags: state.tags, focus: focus, pair: state.currentPairPartner)
        // The histogram of the preview on screen, under it, where the metadata leaves room: with its
        // channels, else luminance alone.
        if let request = previewRequest(photoID: photo.id, in: preview), let histogram = context.previews?.histogram(for: request),
           case let lines = metadataLines(rows, width: inner.width, labelWidth: 10, limit: rowsArea.height),
           let height = [6, 3].first(where: { rowsArea.height - $0 - 1 >= lines }) {
            drawHistogram(histogram, warnAbove: context.clippingWarning, in: Rect(x: inner.x, y: rowsArea.y, width: inner.width, height: height), into: &canvas)
            rowsArea = Rect(x: inner.x, y: rowsArea.y + height + 1, width: inner.width, height: rowsArea.height - height - 1)
        }
        drawMetadata(rows, in: rowsArea, labelWidth: 10, into: &canvas)
    }

    /// Where the side pane in `rect` shows the preview: below the name, two fifths of its height.
    static func sidePanePreview(in rect: Rect) -> Rect {
        let inner = sidePaneInner(rect)
        let previewHeight = min(inner.height * 2 / 5, max(4, inner.width / 2))
        return Rect(x: inner.x, y: inner.y + 1, width: inner.width, height: previewHeight)
    }

    /// The side pane inside its border and margins.
    private static func sidePaneInner(_ rect: Rect) -> Rect {
        Rect(x: rect.x + 2, y: rect.y, width: rect.width - 3, height: rect.height)
    }
}
