import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPreviews
import PhotoPickFormats

/// The loupe's request for an area and its caption's note, as full screen, compare and the screen's
/// wants use them.
extension Drawing {
    /// The view of `photo` at 100% that fills `area`, one image pixel per screen pixel (per symbol
    /// sample in symbols); nil when the area is too small.
    func loupeRequest(_ photo: Photo, centre: UnitPoint, in area: Rect, clipping: Bool = false, histogram: Bool = false) -> LoupeRequest? {
        PreviewRenderer(graphics: context.graphics).box(for: area).map {
            LoupeRequest(photo: photo, centre: centre, box: $0, clipping: clipping, histogram: histogram)
        }
    }

    /// Where the loupe's view of a photo stands, for its caption: what shows, how far the original has
    /// come, or why it cannot; `warning` when the original cannot be had.
    func loupeNote(photoID: Int, short: Bool) -> (text: String, warning: Bool) {
        let frame = context.loupes?.frame(photoID: photoID)
        let standIn: String? = if case .standIn(let size)? = frame?.source { size.rawValue } else { nil }
        let place = frame.map { short ? "" : " · \($0.view.x),\($0.view.y) of \($0.imageSize)" } ?? ""
        switch context.loupes?.status(photoID: photoID) {
        case .fetching(let received, let expected)?:
            let progress = expected.map { "\(Int((Formatting.fraction(received, of: $0) * 100).rounded(.down)))% of \(Figures.bytes($0))" }
                ?? Figures.bytes(received)
            let shows = standIn.map { short ? $0 : "\($0) stands in" } ?? "…"
            return (short ? "\(shows) · \(progress)" : "100% · \(shows) · original \(progress)\(place)", false)
        case .failed(let reason)?:
            return (TerminalText.sanitized((standIn.map { short ? "\($0) · " : "100% · \($0) stands in · " } ?? "") + reason), true)
        case .ready?, nil:
            guard frame == nil || frame?.source == .original else {
                return (short ? "\(standIn ?? "…") · decoding" : "100% · \(standIn.map { "\($0) stands in" } ?? "…") · decoding the original\(place)", false)
            }
            let original = frame?.note.map(TerminalText.sanitized) ?? "original"
            return (short ? "100%" : "100% · \(original)\(place)", false)
        }
    }
}
