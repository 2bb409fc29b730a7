import PhotoBrowser
import PhotoPreviews

/// One frame as the app draws it.
public struct Frame: Sendable {
    /// Where everything went, computed once for the frame.
    public let layout: ScreenLayout
    /// The cells, with the images placed on them.
    public var canvas: Canvas
    /// The previews the frame shows, most important first, then those likely next.
    public let wants: [PreviewRequest]
    /// How many of `wants` are on screen: the first is the photo under the cursor (the user's own
    /// request), the rest of these are visible, and those after them are prefetch.
    public let shownWants: Int
    /// The loupe's views on screen, the active photo's first.
    public let loupeWants: [LoupeRequest]
}

extension Screen {
    /// How many photos ahead of the cursor previews are fetched, in the direction it last moved.
    static let prefetchCount = 3

    /// The previews a frame shows, the one under the cursor and then the nearest first, and after them
    /// those likely wanted next. A function of the state, the UI state and the layout alone: the views
    /// draw the same requests, and the app hands these to the loader.
    func previewWants(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> [PreviewRequest] {
        wantedPreviews(state, ui, layout: layout).requests
    }

    /// The previews a frame shows and then those likely next, with how many are on screen.
    func wantedPreviews(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> (requests: [PreviewRequest], shown: Int) {
        let list = state.list
        guard list.count > 0, !layout.tooSmall else { return ([], 0) }
        switch ui.overlay {
        case .queue?, .details?: return ([], 0)  // they cover the body
        default: break
        }
        if ui.zoom != nil { return ([], 0) }  // the loupe shows the originals
        func request(_ position: Int, _ area: Rect, clipping: Bool = false) -> PreviewRequest? {
            guard position >= 0, position < list.count else { return nil }
            return previewRequest(photoID: state.library.id(at: list.libraryIndex(at: position)), in: area, clipping: clipping)
        }
        func ahead(_ area: Rect, clipping: Bool = false) -> (requests: [PreviewRequest], shown: Int) {
            let requests = (0...Self.prefetchCount).compactMap { request(list.cursor + $0 * ui.travel, area, clipping: clipping) }
            return (requests, min(1, requests.count))
        }
        if let compare = ui.compare { return compareWants(state, compare, clipping: ui.clipping, layout: layout) }
        if ui.fullPreview { return ahead(FullPreviewView.fullPreviewImage(in: layout.body, histogram: ui.histogram), clipping: ui.clipping) }
        if let grid = layout.grid { return gridWants(list, grid, ui) { request($0, $1) } }
        guard let pane = layout.sidePane else { return ([], 0) }
        return ahead(SidePaneView.sidePanePreview(in: pane))
    }

    /// Compare's photos, the active one first: all on screen.
    private func compareWants(_ state: BrowserState, _ compare: UIState.Compare, clipping: Bool, layout: ScreenLayout) -> (requests: [PreviewRequest], shown: Int) {
        let shown = Array(compare.shown)
        let active = state.library.index(ofID: compare.activeID).map { state.library.photo(at: $0) }
        let panes = CompareView.comparePanes(count: shown.count, pixelWidth: active?.width, pixelHeight: active?.height, in: layout.body)
        let requests = zip(shown, panes)
            .filter { position, _ in state.library.index(ofID: compare.photoIDs[position]) != nil }  // deleted meanwhile
            .sorted { ($0.0 == compare.active ? 0 : 1, $0.0) < ($1.0 == compare.active ? 0 : 1, $1.0) }
            .compactMap { position, pane in previewRequest(photoID: compare.photoIDs[position], in: CompareView.compareImage(in: pane), clipping: clipping) }
        return (requests, requests.count)
    }

    /// Every tile in view, nearest the cursor first, then the row beyond the edge the cursor moves to.
    private func gridWants(
        _ list: PhotoList, _ grid: ScreenLayout.Grid, _ ui: UIState, _ request: (Int, Rect) -> PreviewRequest?
    ) -> (requests: [PreviewRequest], shown: Int) {
        let area = grid.thumbnail(in: grid.tile(row: 0, column: 0))
        let first = grid.firstRow(top: list.top, cursor: list.cursor)
        let shown = (first * grid.columns..<min(list.count, (first + grid.rows) * grid.columns))
            .sorted { (abs($0 - list.cursor), $0) < (abs($1 - list.cursor), $1) }
        let next = ui.travel > 0 ? first + grid.rows : first - 1
        let beyond = (0..<grid.columns).map { next * grid.columns + $0 }
        let onScreen = shown.compactMap { request($0, area) }
        return (onScreen + beyond.compactMap { request($0, area) }, onScreen.count)
    }
}
