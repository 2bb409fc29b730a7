import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPreviews

/// A photo's loupe view in `area`: the newest frame made for it (the stand-in until the original
/// arrives), else its outline saying what is coming, or why nothing can show.
struct LoupeView: View {
    let context: ViewContext
    let photo: Photo
    let centre: UnitPoint
    let area: Rect
    /// Whether blown highlights and crushed shadows show red and blue.
    var clipping = false
    /// Whether the original's histogram is wanted beside it.
    var histogram = false

    func draw(in canvas: inout Canvas) {
        guard let request = loupeRequest(photo, centre: centre, in: area, clipping: clipping, histogram: histogram) else { return }
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
}
