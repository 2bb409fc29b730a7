/// The box the help, pickers, prompts and the quit question are drawn in.
extension Drawing {
    /// A dialog box centred in `rect`: filled in the overlay style, outlined, with an optional title
    /// on its top edge. Returns the rectangle inside the outline.
    func drawDialog(width: Int, height: Int, title: String? = nil, in rect: Rect, into canvas: inout Canvas) -> Rect {
        let box = rect.centred(width: width, height: height)
        let background = theme.overlay.background
        canvas.fill(box, style: theme.overlay)
        canvas.coverImages(box)
        canvas.drawBox(box, style: theme.border.on(background), title: title, titleStyle: theme.title.on(background))
        return box.inset(1)
    }

    /// The key hint on the last row inside a dialog.
    func drawDialogHint(_ hint: String, in inner: Rect, into canvas: inout Canvas) {
        canvas.draw(hint, x: inner.x + 1, y: inner.maxY - 1, style: theme.hint.on(theme.overlay.background), limit: inner.width - 2)
    }
}
