/// An original read a region at a time by a reader of its own, which keeps its work (decoded tiles,
/// inflated rows) for the photo's next view: a HEIC grid (`HEIFTiles`), an 8-bit RGB PNG (`PNGRows`), a
/// WebP (`WebPRegions`, which keeps nothing: the loupe keeps its band).
public protocol RegionReader: AnyObject, Sendable {
    /// The upright picture's size.
    var size: PixelSize { get }

    /// The pixels of the upright rectangle from (`x0`, `y0`) to (`x1`, `y1`), which lies inside the picture.
    func region(x0: Int, y0: Int, x1: Int, y1: Int) throws(PreviewError) -> PreviewImage
}
