import CPNG
import Glibc

extension PreviewImage {
    /// The image as a PNG, row filters chosen per row, zlib at `level`: for kitty's compressed
    /// transmission (`f=100`); nil when libpng fails.
    public func png(level: Int = PreviewImage.kittyPNGLevel) -> [UInt8]? {
        withPNG(level: level) { Array($0) }
    }

    /// Hands `body` the PNG while libpng's buffer holds it, so what is made of it (kitty's base64) needs
    /// no copy of it beside: a 4K loupe view's PNG is 12 MB.
    public func withPNG<T>(level: Int = PreviewImage.kittyPNGLevel, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T? {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = pixels.withUnsafeBufferPointer {
            cpng_encode_rgb($0.baseAddress, Int32(width), Int32(height), Int32(level), &output, &length)
        }
        guard status == 0, let output else { return nil }
        defer { free(output) }
        return body(UnsafeBufferPointer(start: output, count: length))
    }

    /// zlib's level for kitty's PNGs, chosen by `photopick-bench link`'s figures: on the demo's 1,500×1,000
    /// photos level 1 makes 1.66–1.88 MB in about 60 ms, level 6 1.40–1.62 MB in 330–400 ms; the 15% it
    /// saves costs more time to make than it saves on a 2.5 MB/s link.
    public static let kittyPNGLevel = 1
}
