import PhotoBrowser
import PhotoPickSettings

/// The status line: the filter being typed with its problems underlined, else the newest message,
/// the loading note and the keys that matter now.
struct StatusLineView: View {
    let context: ViewContext
    let state: BrowserState
    let ui: UIState
    let layout: ScreenLayout

    func draw(in canvas: inout Canvas) {
        let rect = layout.status
        if let field = ui.filterField {
            let used = canvas.drawField("/", field.text, x: rect.x, y: rect.y, style: theme.input, width: rect.width)
            let problems = field.text == state.list.filter.text ? state.list.filter.query.problems + state.list.filter.unknownTags() : []
            for problem in problems {
                let before = TerminalText.sanitized(String(field.text.prefix(problem.offset)))
                let term = TerminalText.sanitized(String(field.text.dropFirst(problem.offset).prefix(problem.length)))
                let x = rect.x + 1 + DisplayWidth.of(before)
                canvas.draw(term, x: x, y: rect.y, style: theme.badTerm, limit: max(0, rect.x + used - x))
            }
            let hint = problems.first.map { "\($0.term): \($0.reason)" } ?? "enter keep · esc clear"
            if used + 2 < rect.width {
                canvas.drawRight(
                    TerminalText.sanitized(hint), maxX: rect.maxX, y: rect.y, style: problems.isEmpty ? theme.hint : theme.warning,
                    limit: rect.width - used - 2
                )
            }
            return
        }
        var position = state.list.count == 0 ? "" : "\((state.list.cursor + 1).formatted())/\(state.list.count.formatted())"
        // Cull mode says so whatever else the line shows, as vim's -- INSERT -- does.
        if ui.culling { position = "cull · " + position }
        if let compare = ui.compare { position = "compare · \(compare.active + 1)/\(compare.photoIDs.count)" }
        if ui.zoom != nil { position = "100% · " + position }
        let hints = hintText(state, ui)
        var right = position
        if let message = state.message {
            let style = message.severity == .error ? theme.error : message.severity == .warning ? theme.warning : theme.info
            // A column of space between the message and the position.
            let reserve = DisplayWidth.of(right) + 2
            canvas.draw(" " + Self.text(of: message, keys: context.keymap) + " ", x: rect.x, y: rect.y, style: style, limit: rect.width - reserve)
        } else {
            let full = hints + "   " + position
            if DisplayWidth.of(full) + 1 <= rect.width { right = full }
            canvas.draw(" " + loadingNote(state), x: rect.x, y: rect.y, style: theme.hint, limit: max(0, rect.width - DisplayWidth.of(right) - 2))
        }
        canvas.drawRight(right + " ", maxX: rect.maxX, y: rect.y, style: theme.hint, limit: rect.width)
    }

    private func loadingNote(_ state: BrowserState) -> String {
        switch state.loading.phase {
        case .failed: "Loading stopped; \(context.keymap.hint(.reload)) resumes it"
        case .cancelled: "Loading paused; \(context.keymap.hint(.reload)) resumes it"
        default: ""
        }
    }

    private func hintText(_ state: BrowserState, _ ui: UIState) -> String {
        let keys = context.keymap
        if ui.zoom != nil {
            let pan = [Action.left, .down, .up, .right].map(keys.hint).joined(separator: "/")
            return "\(pan) pan\(ui.compare != nil ? " together" : "") · \(keys.hint(.pick)) \(keys.hint(.reject)) mark · \(keys.hint(.zoom)) back"
        }
        if ui.compare != nil {
            let ratings = [Action.rate0, .rate5].map(keys.hint).joined(separator: "–")
            return "\(keys.hint(.left))/\(keys.hint(.right)) active · \(keys.hint(.pick)) \(keys.hint(.reject)) \(keys.hint(.unflag)) \(ratings) mark it · esc back"
        }
        if ui.culling {
            let ratings = [Action.rate0, .rate5].map(keys.hint).joined(separator: "–")
            let labels = [Action.labelRed, .labelBlue].map(keys.hint).joined(separator: "–")
            return "\(keys.hint(.pick)) pick · \(keys.hint(.reject)) reject · \(ratings) stars · \(labels) label · \(keys.hint(.undo)) undo · \(keys.hint(.cullMode))/esc leave"
        }
        if state.visualPositions != nil {
            return "visual: move to extend · \(keys.hint(.visualRange)) keep · \(keys.hint(.cancel)) undo"
        }
        if ui.fullPreview {
            return "\(keys.hint(.down))/\(keys.hint(.up)) next/previous · \(keys.hint(.toggleSelection)) select · \(keys.hint(.tagPicker)) tag · \(keys.hint(.preview)) back"
        }
        let select = "\(keys.hint(.toggleSelection)) select · \(keys.hint(.tagPicker)) tag · \(keys.hint(.download)) download"
        if ui.mode == .grid {
            return "\(keys.hint(.help)) help · \(select) · \(keys.hint(.preview)) preview · \(keys.hint(.grid)) list"
        }
        return "\(keys.hint(.help)) help · \(select) · \(keys.hint(.grid)) grid · \(keys.hint(.quit)) quit"
    }

    /// A message with its remedy, naming the key bound to it now: "Loading paused at 200 photos. Press
    /// F5 to resume loading."
    static func text(of message: StatusMessage, keys: Keymap) -> String {
        let text = TerminalText.sanitized(message.text)
        let remedy: String? = switch message.remedy {
        case .resumeLoading?: keys.label(.reload).map { "Press \($0) to resume loading." }
        case .pickTag?: keys.label(.tagPicker).map { "Press \($0) to pick a tag or create one." }
        case .retryDownload?: keys.label(.queueRetry).map { retry in
            "Press \(retry) in the queue" + (keys.label(.queuePanel).map { " (\($0))" } ?? "") + " to retry."
        }
        case nil: nil
        }
        guard let remedy else { return text }
        return text + (text.hasSuffix(".") ? " " : ". ") + remedy
    }
}
