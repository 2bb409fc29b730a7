/// What the whole canvas shows when the window is below the smallest size photopick lays out.
struct TooSmallView: View {
    let context: ViewContext

    func draw(in canvas: inout Canvas) {
        let lines = ["Make the window bigger:", "photopick needs at least", "\(ScreenLayout.minimumWidth)×\(ScreenLayout.minimumHeight); this is \(canvas.width)×\(canvas.height).", "\(context.keymap.hint(.quit)) quits"]
        let top = max(0, (canvas.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < canvas.height {
            let width = min(DisplayWidth.of(line), canvas.width)
            canvas.draw(line, x: max(0, (canvas.width - width) / 2), y: top + offset, style: offset == 0 ? theme.title : theme.text)
        }
    }
}

/// What the whole canvas shows while the library opens: the title bar and one centred line.
struct OpeningView: View {
    let context: ViewContext
    let message: String

    func draw(in canvas: inout Canvas) {
        canvas.fill(canvas.bounds)
        guard canvas.height >= 2, canvas.width >= 10 else { return }
        canvas.fill(Rect(x: 0, y: 0, width: canvas.width, height: 1), style: theme.headerDetail)
        canvas.draw(" photopick", x: 0, y: 0, style: theme.header)
        let width = min(DisplayWidth.of(message), canvas.width - 2)
        canvas.draw(message, x: max(1, (canvas.width - width) / 2), y: canvas.height / 2, style: theme.dim, limit: canvas.width - 2)
        canvas.draw(" \(context.keymap.hint(.quit)) quits", x: 0, y: canvas.height - 1, style: theme.hint)
    }
}
