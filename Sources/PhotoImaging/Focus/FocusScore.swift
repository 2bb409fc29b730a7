import CJPEG

/// How sharp a photo is, from a rendition: the variance-of-Laplacian measure over tiles, the best
/// tile's, relative to its brightness (`cjpeg_focus_score`). Decoded to 512 pixels on the long edge
/// and measured at 256 whatever rendition it comes from, so `web`, `fhd` and `a4` agree within a few
/// percent. Higher is sharper.
public enum FocusScore {
    /// The long edge renditions are decoded to; the C side halves it.
    static let edge = 512

    /// The score of a JPEG; nil when it cannot be decoded.
    public static func measure(_ jpeg: [UInt8], decoder: PreviewDecoder = PreviewDecoder()) -> Double? {
        guard let image = try? decoder.decode(jpeg, fitting: PixelSize(width: edge, height: edge)).image else { return nil }
        return measure(image)
    }

    /// The score of decoded pixels; nil for an image under 8 × 8.
    public static func measure(_ image: PreviewImage) -> Double? {
        let score = image.pixels.withUnsafeBufferPointer { cjpeg_focus_score($0.baseAddress, Int32(image.width), Int32(image.height), nil, nil) }
        return score < 0 ? nil : score
    }

    /// The score of pixels as the loupe shows them, one image pixel per screen pixel: the same measure
    /// taken at every pixel, so a frame off by a pixel's blur, which no rendition shows, scores lower.
    /// On another scale than `measure`'s (nothing is averaged away): compare it only with scores taken
    /// the same way, over the same part of pictures of one size. Nil for an image under 8 × 8.
    public static func measureAtFullSize(_ image: PreviewImage) -> Double? {
        let score = image.pixels.withUnsafeBufferPointer { cjpeg_focus_score_at($0.baseAddress, Int32(image.width), Int32(image.height), 0, nil, nil) }
        return score < 0 ? nil : score
    }

    /// Where the picture is sharpest, as fractions of its width and height (the centre of the best
    /// tile): where the loupe opens. The centre when nothing has detail.
    public static func sharpestPoint(_ image: PreviewImage) -> (x: Double, y: Double) {
        var x = 0.5, y = 0.5
        _ = image.pixels.withUnsafeBufferPointer { cjpeg_focus_score($0.baseAddress, Int32(image.width), Int32(image.height), &x, &y) }
        return (x, y)
    }
}
