import PhotoBrowser
import PhotoImaging

/// Where a view put a photo's preview: the cells it covers and the preview it shows. The canvas keeps
/// these beside its cells, so that a graphics protocol can place pixels over exactly those cells.
public struct ImagePlacement: Sendable, Equatable {
    /// The photo shown.
    public let photoID: Int
    /// The preview's pixel box, as asked of the loader.
    public let box: PixelSize
    /// Which pixels of the photo at that box: 0 for its fitted preview, else a loupe view's
    /// (`LoupeFrame.content`), so a pan sends the new view.
    public let content: Int
    /// The cells the image covers.
    public let rect: Rect
    /// The bytes the driver writes for it, in the frame's graphics protocol.
    let payload: EncodedImage?

    init(photoID: Int, box: PixelSize, content: Int = 0, rect: Rect, payload: EncodedImage? = nil) {
        self.photoID = photoID
        self.box = box
        self.content = content
        self.rect = rect
        self.payload = payload
    }
}

extension Canvas {
    /// Records that `rect` shows an image; drawing it in cells is the view's part.
    mutating func placeImage(_ placement: ImagePlacement) {
        guard placement.rect.width > 0, placement.rect.height > 0 else { return }
        images.append(placement)
    }

    /// Takes away the images `rect` overlaps, whole: a dialog drawn over them hides them, since pixels
    /// would show over the dialog's text (kitty) or through its gaps (sixel).
    mutating func coverImages(_ rect: Rect) {
        images.removeAll { $0.rect.intersects(rect) }
    }
}
