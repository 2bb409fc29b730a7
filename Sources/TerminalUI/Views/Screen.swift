import PhotoBrowser

/// Draws the whole screen for a state into a canvas. Pure: the same state, UI state and size always
/// give the same cells, which is what the view tests and the render benchmark rely on.
public struct Screen: Sendable {
    var context: ViewContext

    /// A screen that draws with `context`.
    public init(context: ViewContext) {
        self.context = context
    }

    var theme: Theme { context.theme }

    /// The layout for a canvas size, state and mode.
    public func layout(width: Int, height: Int, state: BrowserState, mode: UIState.Mode = .list) -> ScreenLayout {
        ScreenLayout(width: width, height: height, showsStrip: Self.showsStrip(state), mode: mode)
    }

    /// Whether the queue strip shows: the one fact of the state the layout depends on.
    static func showsStrip(_ state: BrowserState) -> Bool { !state.downloads.items.isEmpty }

    /// Draws everything at the canvas's size and returns where it went: for tests and benchmarks.
    @discardableResult
    public func render(_ state: BrowserState, _ ui: UIState, into canvas: inout Canvas) -> ScreenLayout {
        let layout = layout(width: canvas.width, height: canvas.height, state: state, mode: ui.mode)
        render(state, ui, layout: layout, into: &canvas)
        return layout
    }

    /// One whole frame: the layout computed once, the views drawn into a new canvas, and the previews
    /// the frame shows or will show next.
    public func frame(_ state: BrowserState, _ ui: UIState, width: Int, height: Int) -> Frame {
        frame(state, ui, layout: layout(width: width, height: height, state: state, mode: ui.mode))
    }

    /// One whole frame for a layout already computed.
    func frame(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> Frame {
        var canvas = Canvas(width: layout.bounds.width, height: layout.bounds.height)
        render(state, ui, layout: layout, into: &canvas)
        let wants = wantedPreviews(state, ui, layout: layout)
        return Frame(layout: layout, canvas: canvas, wants: wants.requests, shownWants: wants.shown, loupeWants: loupeWants(state, ui, layout: layout))
    }

    /// Draws everything into a canvas of the layout's size. Changes nothing but the canvas.
    func render(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout, into canvas: inout Canvas) {
        canvas.fill(canvas.bounds)
        if layout.tooSmall { return drawTooSmall(into: &canvas) }
        drawHeader(state, layout.header, into: &canvas)
        if case .queue(let cursor) = ui.overlay {
            drawQueuePanel(state, cursor: cursor, in: layout.body, into: &canvas)
        } else if case .details(let scroll) = ui.overlay {
            drawDetails(state, scroll: scroll, in: layout.body, into: &canvas)
        } else if let compare = ui.compare {
            drawCompare(state, compare, zoom: ui.zoom, in: layout.body, into: &canvas)
        } else if ui.fullPreview {
            drawFullPreview(state, zoom: ui.zoom, in: layout.body, into: &canvas)
        } else if let grid = layout.grid {
            drawGrid(state, grid, scrollBar: layout.scrollBar, into: &canvas)
        } else {
            drawList(state, layout, into: &canvas)
            if let pane = layout.sidePane { drawSidePane(state, in: pane, into: &canvas) }
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
    }

    private func drawTooSmall(into canvas: inout Canvas) {
        let lines = ["Make the window bigger:", "photopick needs at least", "\(ScreenLayout.minimumWidth)×\(ScreenLayout.minimumHeight); this is \(canvas.width)×\(canvas.height).", "\(context.keymap.hint(.quit)) quits"]
        let top = max(0, (canvas.height - lines.count) / 2)
        for (offset, line) in lines.enumerated() where top + offset < canvas.height {
            let width = min(DisplayWidth.of(line), canvas.width)
            canvas.draw(line, x: max(0, (canvas.width - width) / 2), y: top + offset, style: offset == 0 ? theme.title : theme.text)
        }
    }
}

extension Screen {
    /// What shows while the library opens: the title bar and one centred line.
    func renderOpening(_ message: String, into canvas: inout Canvas) {
        canvas.fill(canvas.bounds)
        guard canvas.height >= 2, canvas.width >= 10 else { return }
        canvas.fill(Rect(x: 0, y: 0, width: canvas.width, height: 1), style: theme.headerDetail)
        canvas.draw(" photopick", x: 0, y: 0, style: theme.header)
        let width = min(DisplayWidth.of(message), canvas.width - 2)
        canvas.draw(message, x: max(1, (canvas.width - width) / 2), y: canvas.height / 2, style: theme.dim, limit: canvas.width - 2)
        canvas.draw(" \(context.keymap.hint(.quit)) quits", x: 0, y: canvas.height - 1, style: theme.hint)
    }
}
