import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPreviews

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
            let panes = Self.comparePanes(count: shown.count, pixelWidth: active?.width, pixelHeight: active?.height, in: layout.body)
            return zip(shown, panes)
                .sorted { ($0.0 == compare.active ? 0 : 1, $0.0) < ($1.0 == compare.active ? 0 : 1, $1.0) }
                .compactMap { position, pane in
                    state.library.index(ofID: compare.photoIDs[position]).map { (state.library.photo(at: $0), Self.compareImage(in: pane)) }
                }
        }
        guard ui.fullPreview, let index = state.list.currentIndex else { return [] }
        return [(state.library.photo(at: index), Self.fullPreviewImage(in: layout.body))]
    }

    /// The loupe views a frame shows, the active photo's first; every one centred on the same point.
    func loupeWants(_ state: BrowserState, _ ui: UIState, layout: ScreenLayout) -> [LoupeRequest] {
        guard let zoom = ui.zoom else { return [] }
        return loupeTargets(state, ui, layout: layout).compactMap { loupeRequest($0.photo, centre: zoom.centre, in: $0.area) }
    }

    /// The view of `photo` at 100% that fills `area`, one image pixel per screen pixel (per symbol
    /// sample in symbols); nil when the area is too small.
    func loupeRequest(_ photo: Photo, centre: UnitPoint, in area: Rect) -> LoupeRequest? {
        PreviewRenderer(graphics: context.graphics).box(for: area).map { LoupeRequest(photo: photo, centre: centre, box: $0) }
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

    /// A photo's loupe view in `area`: the newest frame made for it (the stand-in until the original
    /// arrives), else its outline saying what is coming, or why nothing can show.
    func drawLoupe(_ photo: Photo, centre: UnitPoint, in area: Rect, into canvas: inout Canvas) {
        guard let request = loupeRequest(photo, centre: centre, in: area) else { return }
        let loupes = context.loupes
        if let frame = loupes?.frame(photoID: photo.id), frame.request.box == request.box, let rendering = frame.rendering,
           PreviewDrawing.place(rendering, of: frame.size, photoID: photo.id, box: request.box, content: frame.content, in: area,
                                graphics: context.graphics, into: &canvas) {
            return
        }
        if case .failed(let reason)? = loupes?.status(photoID: photo.id), let standIn = loupes?.standInFailure(photoID: photo.id) {
            return drawNoPreview(TerminalText.sanitized("\(reason); \(standIn)"), pixelWidth: photo.width, pixelHeight: photo.height, in: area, into: &canvas)
        }
        drawPlaceholder(pixelWidth: photo.width, pixelHeight: photo.height, note: loupes == nil ? "no loupe here" : "100% coming…", in: area, into: &canvas)
    }

    /// Where the loupe's view of a photo stands, for its caption: what shows, how far the original has
    /// come, or why it cannot; `warning` when the original cannot be had.
    func loupeNote(photoID: Int, short: Bool) -> (text: String, warning: Bool) {
        let frame = context.loupes?.frame(photoID: photoID)
        let standIn: String? = if case .standIn(let size)? = frame?.source { size.rawValue } else { nil }
        let place = frame.map { short ? "" : " · \($0.view.x),\($0.view.y) of \($0.imageSize)" } ?? ""
        switch context.loupes?.status(photoID: photoID) {
        case .fetching(let received, let expected)?:
            let progress = expected.map { "\(Int((Formatting.fraction(received, of: $0) * 100).rounded(.down)))% of \(ByteText.format($0))" }
                ?? ByteText.format(received)
            let shows = standIn.map { short ? $0 : "\($0) stands in" } ?? "…"
            return (short ? "\(shows) · \(progress)" : "100% · \(shows) · original \(progress)\(place)", false)
        case .failed(let reason)?:
            return (TerminalText.sanitized((standIn.map { short ? "\($0) · " : "100% · \($0) stands in · " } ?? "") + reason), true)
        case .ready?, nil:
            guard frame == nil || frame?.source == .original else {
                return (short ? "\(standIn ?? "…") · decoding" : "100% · \(standIn.map { "\($0) stands in" } ?? "…") · decoding the original\(place)", false)
            }
            return (short ? "100%" : "100% · original\(place)", false)
        }
    }
}
