import PhotoBrowser

/// Draws the whole screen for a state into a canvas. Pure: the same state, UI state and size always
/// give the same cells, which is what the view tests and the render benchmark rely on.
public struct Screen: Sendable, Drawing {
    var context: ViewContext

    /// A screen that draws with `context`.
    public init(context: ViewContext) {
        self.context = context
    }

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
        if layout.tooSmall { return TooSmallView(context: context).draw(in: &canvas) }
        HeaderView(context: context, state: state, rect: layout.header, culling: ui.culling).draw(in: &canvas)
        if case .queue(let cursor) = ui.overlay {
            QueuePanelView(context: context, state: state, cursor: cursor, rect: layout.body).draw(in: &canvas)
        } else if case .details(let scroll) = ui.overlay {
            DetailsView(context: context, state: state, scroll: scroll, rect: layout.body).draw(in: &canvas)
        } else if let compare = ui.compare {
            CompareView(context: context, state: state, compare: compare, zoom: ui.zoom, clipping: ui.clipping, body: layout.body).draw(in: &canvas)
        } else if ui.fullPreview {
            FullPreviewView(context: context, state: state, zoom: ui.zoom, clipping: ui.clipping, histogram: ui.histogram, body: layout.body).draw(in: &canvas)
        } else if let grid = layout.grid {
            GridView(context: context, state: state, grid: grid, scrollBar: layout.scrollBar).draw(in: &canvas)
        } else {
            ListView(context: context, state: state, layout: layout).draw(in: &canvas)
            if let pane = layout.sidePane { SidePaneView(context: context, state: state, rect: pane).draw(in: &canvas) }
        }
        if let strip = layout.strip { QueueStripView(context: context, state: state, rect: strip).draw(in: &canvas) }
        StatusLineView(context: context, state: state, ui: ui, layout: layout).draw(in: &canvas)
        switch ui.overlay {
        case .help(let scroll): HelpView(context: context, scroll: scroll, rect: layout.body).draw(in: &canvas)
        case .picker(let picker): PickerView(context: context, picker: picker, state: state, rect: layout.body).draw(in: &canvas)
        case .prompt(let prompt): PromptView(context: context, prompt: prompt, state: state, rect: layout.body).draw(in: &canvas)
        case .editForm(let form): EditFormView(context: context, form: form, state: state, rect: layout.body).draw(in: &canvas)
        case .confirmQuit: ConfirmQuitView(context: context, state: state, rect: layout.body).draw(in: &canvas)
        case .stats(let cursor): StatsView(context: context, cursor: cursor, rect: layout.body).draw(in: &canvas)
        case .queue, .details, nil: break
        }
    }
}
