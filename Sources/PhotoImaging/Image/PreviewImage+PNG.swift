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

    /// zlib's level for kitty's PNGs, chosen by `photopick-bench graphics`: on the demo's photo 1 at
    /// 667×1000, level 1 makes 1.01 MB of base64 in 27 ms and level 6 0.84 MB in 142 ms; made and sent
    /// at 2.5 MB/s, 431 ms against 477. The CPU level 6 spends is more than the bytes it saves.
    public static let kittyPNGLevel = 1
}
