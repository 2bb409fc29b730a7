import PhotoBrowser

/// Draws the whole screen for a state into a canvas. Pure: the same state, UI state and size always
/// give the same cells, which is what the view tests and the render benchmark rely on.
public struct Screen: Sendable {
    public var context: ViewContext

    public init(context: ViewContext) {
        self.context = context
    }

    var theme: Theme { context.theme }

    /// The layout for a canvas size, state and mode.
    public func layout(width: Int, height: Int, state: BrowserState, mode: UIState.Mode = .list) -> ScreenLayout {
        ScreenLayout(width: width, height: height, showsStrip: !state.downloads.items.isEmpty, mode: mode)
    }

    /// Draws everything and returns where it went.
    @discardableResult
    public func render(_ state: BrowserState, _ ui: UIState, into canvas: inout Canvas) -> ScreenLayout {
        var wants: [PreviewRequest] = []
        return render(state, ui, into: &canvas, wants: &wants)
    }

    /// Draws everything, appends the previews it showed or would show to `wants` (most important
    /// first), and returns where it went.
    @discardableResult
    public func render(_ state: BrowserState, _ ui: UIState, into canvas: inout Canvas, wants: inout [PreviewRequest]) -> ScreenLayout {
        let layout = layout(width: canvas.width, height: canvas.height, state: state, mode: ui.mode)
        canvas.fill(canvas.bounds)
        if layout.tooSmall {
            drawTooSmall(into: &canvas)
            return layout
        }
        drawHeader(state, layout.header, into: &canvas)
        if case .queue(let cursor) = ui.overlay {
            drawQueuePanel(state, cursor: cursor, in: layout.body, into: &canvas)
        } else if case .details(let scroll) = ui.overlay {
            drawDetails(state, scroll: scroll, in: layout.body, into: &canvas)
        } else if ui.fullPreview {
            drawFullPreview(state, in: layout.body, wants: &wants, into: &canvas)
        } else if let grid = layout.grid {
            drawGrid(state, grid, scrollBar: layout.scrollBar, wants: &wants, into: &canvas)
        } else {
            drawList(state, layout, into: &canvas)
            if let pane = layout.sidePane { drawSidePane(state, in: pane, wants: &wants, into: &canvas) }
        }
        if let strip = layout.strip { drawQueueStrip(state, in: strip, into: &canvas) }
        drawStatus(state, ui, layout, into: &canvas)
        switch ui.overlay {
        case .help(let scroll): drawHelp(scroll: scroll, in: layout.body, into: &canvas)
        case .picker(let picker): drawPicker(picker, state, in: layout.body, into: &canvas)
        case .prompt(let prompt): drawPrompt(prompt, state, in: layout.body, into: &canvas)
        case .confirmQuit: drawConfirmQuit(state, in: layout.body, into: &canvas)
        case .queue, .details, nil: break
        }
        return layout
    }

    private func drawTooSmall(into canvas: inout Canvas) {
        let lines = ["Make the window bigger:", "photopick needs at least", "\(ScreenLayout.minimumWidth)×\(ScreenLayout.minimumHeight); this is \(canvas.width)×\(canvas.height).", "\(context.keymap.hint(.quit)) quits"]
        let top = max(0, (canvas.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < canvas.height {
            let width = min(DisplayWidth.of(line), canvas.width)
            canvas.draw(line, x: max(0, (canvas.width - width) / 2), y: top + offset, style: offset == 0 ? theme.title : theme.text)
        }
    }

    // MARK: Header

    private func drawHeader(_ state: BrowserState, _ rect: Rect, into canvas: inout Canvas) {
        canvas.fill(rect, style: theme.headerDetail)
        let name: [String]
        if context.demo {
            name = ["Demo library: set PHOTOPICK_API_KEY to browse your own", "Demo library", "Demo"]
        } else {
            let account = (context.libraryName ?? state.account.keyName).map(TerminalText.sanitized) ?? "PhotoPick"
            name = [account]
        }
        var counts = state.loadSummary
        if !state.list.filter.isEmpty { counts += " · \(state.list.count.formatted()) shown" }
        var details = [counts]
        if let filter = filterSummary(state) { details.append(filter) }
        if !state.selection.isEmpty {
            details.append("\(state.selection.count.formatted()) selected (\(ByteText.format(state.selection.totalBytes)))")
        }
        let rate = rateSummary(state)
        let rateWidth = rate.map { DisplayWidth.of($0) + 2 } ?? 0
        for (index, candidate) in name.enumerated() {
            let text = " photopick · \(candidate)"
            let rest = " · " + details.joined(separator: " · ")
            let fits = DisplayWidth.of(text + rest) + rateWidth <= rect.width
            guard fits || index == name.count - 1 else { continue }
            let used = canvas.draw(text, x: rect.x, y: rect.y, style: theme.header, limit: rect.width)
            let available = rect.width - used - (fits ? rateWidth : 0)
            canvas.draw(rest, x: rect.x + used, y: rect.y, style: theme.headerDetail, limit: available)
            if fits, let rate {
                canvas.drawRight(rate + " ", maxX: rect.maxX, y: rect.y, style: theme.headerDetail, limit: rateWidth)
            }
            break
        }
    }

    private func filterSummary(_ state: BrowserState) -> String? {
        let filter = state.list.filter
        var parts: [String] = []
        if !filter.text.isEmpty { parts.append("/\(TerminalText.sanitized(filter.text))") }
        switch filter.tags {
        case .none: break
        case .untagged: parts.append("untagged")
        case .any(let ids): parts.append("any of " + tagNames(ids, state))
        case .all(let ids): parts.append("all of " + tagNames(ids, state))
        }
        if filter.onlySelected { parts.append("selected only") }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private func tagNames(_ ids: Set<Int>, _ state: BrowserState) -> String {
        state.tags.tags.filter { ids.contains($0.id) }.map { TerminalText.sanitized($0.name) }.joined(separator: ", ")
    }

    private func rateSummary(_ state: BrowserState) -> String? {
        guard let limit = state.account.rateLimit, let total = limit.limit, let remaining = limit.remaining else { return nil }
        let waiting = limit.isHolding ? " waiting" : ""
        return "API \(remaining)/\(total)\(waiting)"
    }

    // MARK: Status line

    private func drawStatus(_ state: BrowserState, _ ui: UIState, _ layout: ScreenLayout, into canvas: inout Canvas) {
        let rect = layout.status
        if let field = ui.filterField {
            let used = canvas.drawField("/", field.text, x: rect.x, y: rect.y, style: theme.input, width: rect.width)
            let hint = "enter keep · esc clear"
            if used + 2 + DisplayWidth.of(hint) < rect.width {
                canvas.drawRight(hint, maxX: rect.maxX, y: rect.y, style: theme.hint, limit: rect.width)
            }
            return
        }
        let position = state.list.count == 0 ? "" : "\((state.list.cursor + 1).formatted())/\(state.list.count.formatted())"
        let hints = hintText(state, ui)
        var right = position
        if let message = state.messages.current {
            let style = message.severity == .error ? theme.error : message.severity == .warning ? theme.warning : theme.info
            // A column of space between the message and the position.
            let reserve = DisplayWidth.of(right) + 2
            canvas.draw(" " + TerminalText.sanitized(message.text) + " ", x: rect.x, y: rect.y, style: style, limit: rect.width - reserve)
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
        if state.visualRange != nil {
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
}

extension Screen {
    /// What shows while the library opens: the title bar and one centred line.
    public func renderOpening(_ message: String, into canvas: inout Canvas) {
        canvas.fill(canvas.bounds)
        guard canvas.height >= 2, canvas.width >= 10 else { return }
        canvas.fill(Rect(x: 0, y: 0, width: canvas.width, height: 1), style: theme.headerDetail)
        canvas.draw(" photopick", x: 0, y: 0, style: theme.header)
        let width = min(DisplayWidth.of(message), canvas.width - 2)
        canvas.draw(message, x: max(1, (canvas.width - width) / 2), y: canvas.height / 2, style: theme.dim, limit: canvas.width - 2)
        canvas.draw(" \(context.keymap.hint(.quit)) quits", x: 0, y: canvas.height - 1, style: theme.hint)
    }
}
