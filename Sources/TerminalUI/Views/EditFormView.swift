import Foundation
import PhotoBrowser
import PhotoPickFormats

/// `E`: a box with the four fields, the one in focus marked; under the capture time, what a change does
/// to the first and last photo by time; the reason the last Enter was refused.
struct EditFormView: View {
    let context: ViewContext
    let form: EditForm
    let state: BrowserState
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let background = theme.overlay.background
        let preview = form.timePreview() ?? []
        let height = 2 + 2 * EditForm.fields.count + preview.count + (form.problem == nil ? 0 : 1) + 2
        let count = form.photoIDs.count
        let title = count == 1 ? "Edit this photo" : "Edit \(count.formatted()) photos"
        let inner = drawDialog(width: min(rect.width, 78), height: min(rect.height, height), title: title, in: rect, into: &canvas)
        let width = inner.width - 2
        var y = inner.y
        for (offset, field) in EditForm.fields.enumerated() {
            guard y + 1 < inner.maxY - 1 else { break }
            let focused = offset == form.focus
            let label = Self.label(field, photos: count) + (count > 1 && form.differing.contains(field) ? " (they differ; empty leaves each)" : "")
            canvas.draw((focused ? "› " : "  ") + label, x: inner.x + 1, y: y, style: (focused ? theme.title : theme.hint).on(background), limit: width)
            let text = form.values[field]?.text ?? ""
            let room = width - 3
            let shown = DisplayWidth.of(text) > room ? "…" + String(text.suffix(max(0, room - 2))) : text
            if focused {
                canvas.drawField("", shown, x: inner.x + 3, y: y + 1, style: theme.input.on(background), width: width - 2)
            } else {
                canvas.draw(TerminalText.sanitized(shown), x: inner.x + 3, y: y + 1, style: theme.title.on(background), limit: width - 2)
            }
            y += 2
            if field == .takenAt {
                for end in preview where y < inner.maxY - 1 {
                    let line = "\(TerminalText.sanitized(end.name)): \(Self.time(end.before)) → \(Self.time(end.after))"
                    canvas.draw(line, x: inner.x + 3, y: y, style: theme.hint.on(background), limit: width - 2)
                    y += 1
                }
            }
        }
        if let problem = form.problem, y < inner.maxY - 1 {
            canvas.draw(problem, x: inner.x + 1, y: y, style: theme.warning.on(background), limit: width)
        }
        drawDialogHint("tab next field · enter apply · esc cancel", in: inner, into: &canvas)
    }

    /// What each field is called, with what it takes.
    static func label(_ field: PhotoField, photos: Int) -> String {
        switch field {
        case .title: "Title"
        case .description: "Description"
        case .filename: photos > 1 ? "File name: a template such as {taken:%Y%m%d}_{n:03}.{extension}" : "File name"
        case .takenAt: "Capture time (UTC), or a shift: +1h, -00:14:30, zone Europe/Prague"
        }
    }

    /// A capture time as the preview shows it, in UTC like the field.
    static func time(_ date: Date) -> String {
        ISO8601.string(seconds: Int64(date.timeIntervalSince1970.rounded(.down)))
    }
}
