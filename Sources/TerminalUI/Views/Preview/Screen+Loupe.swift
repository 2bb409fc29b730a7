import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPreviews

/// Where the loupe's views go in a frame, and what its keys need: computed from the state and the
/// layout, as the views draw them.
extension Screen {
    /// The photos the loupe shows and where: full screen's photo, or compare's, the active one first.
    func loupeTargets(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> [(photo: Photo, area: Rect)] {
        guard ui.zoom != nil, !layout.tooSmall else { return [] }
        switch ui.overlay {
        case .queue?, .details?: return []
        default: break
        }
        if let compare = ui.compare {
            let shown = Array(compare.shown)
            let active = state.library.index(ofID: compare.activeID).map { state.library.photo(at: $0) }
            let panes = CompareView.comparePanes(count: shown.count, pixelWidth: active?.width, pixelHeight: active?.height, in: layout.body)
            return zip(shown, panes)
                .sorted { ($0.0 == compare.active ? 0 : 1, $0.0) < ($1.0 == compare.active ? 0 : 1, $1.0) }
                .compactMap { position, pane in
                    state.library.index(ofID: compare.photoIDs[position]).map { (state.library.photo(at: $0), CompareView.compareImage(in: pane)) }
                }
        }
        guard ui.fullPreview, let index = state.list.currentIndex else { return [] }
        return [(state.library.photo(at: index), FullPreviewView.fullPreviewImage(in: layout.body, histogram: ui.histogram))]
    }

    /// The loupe views a frame shows, the active photo's first; every one centred on the same point.
    func loupeWants(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> [LoupeRequest] {
        guard let zoom = ui.zoom else { return [] }
        // The original's histogram is counted for full screen's `H` (compare draws none).
        let histogram = ui.histogram && ui.compare == nil
        return loupeTargets(state, ui, layout: layout).compactMap {
            loupeRequest($0.photo, centre: zoom.centre, in: $0.area, clipping: ui.clipping, histogram: histogram)
        }
    }

    /// What the loupe's keys need: the active photo's view and picture, and its sharpest point from the
    /// preview on screen (the centre when none is).
    func loupeGeometry(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> LoupeGeometry? {
        var opened = ui
        if opened.zoom == nil { opened.zoom = UIState.Zoom(centre: .centre) }
        guard let (photo, area) = loupeTargets(state, opened, layout: layout).first,
              let box = PreviewRenderer(graphics: context.graphics).box(for: area) else { return nil }
        let previews = context.previews, preview = previewRequest(photoID: photo.id, in: area)
        // The picture's size: from the loupe's frame; before it, the photo's own, turned as the preview
        // on screen is; unknown (zero, so nothing is clamped to it) when the photo has none.
        var shown: PixelSize?
        if let preview, case .loaded(let image)? = previews?.state(for: preview) { shown = PixelSize(width: image.width, height: image.height) }
        let imageSize = context.loupes?.frame(photoID: photo.id)?.imageSize
            ?? photo.width.flatMap { width in photo.height.map { height in
                LoupeLoader.originalSize(of: photo, standIn: shown ?? PixelSize(width: width, height: height))
            } }
            ?? PixelSize(width: 0, height: 0)
        return LoupeGeometry(viewport: box, imageSize: imageSize) {
            guard let preview, case .loaded(let image)? = previews?.state(for: preview) else { return .centre }
            let point = FocusScore.sharpestPoint(image)
            return UnitPoint(x: point.x, y: point.y)
        }
    }
}
