import CWebP

/// A WebP read a region at a time with libwebp's own cropping: its macroblock rows decoded down to the
/// region's bottom and only the region turned into RGB, as a JPEG's band is (a lossy WebP, like a JPEG,
/// is decoded from the top). Nothing is kept between regions; the loupe keeps the band.
public final class WebPRegions: RegionReader {
    private let bytes: [UInt8]
    /// The picture's size (a WebP's orientation is in its EXIF, which photopick does not apply to WebP).
    public let size: PixelSize

    /// The WebP in `bytes`, its header read and its size checked against `pixelLimit`.
    static func open(_ bytes: [UInt8], pixelLimit: Int) throws(PreviewError) -> WebPRegions {
        var width: Int32 = 0, height: Int32 = 0
        guard bytes.withUnsafeBufferPointer({ WebPGetInfo($0.baseAddress, $0.count, &width, &height) }) != 0 else {
            throw .damaged(format: "WebP", reason: "libwebp does not read its header")
        }
        try OriginalDecoder(pixelLimit: pixelLimit).check(Int(width), Int(height))
        return WebPRegions(bytes, size: PixelSize(width: Int(width), height: Int(height)))
    }

    private init(_ bytes: [UInt8], size: PixelSize) {
        self.bytes = bytes
        self.size = size
    }

    /// The rectangle decoded with libwebp's cropping, with a margin of 4 pixels on each side (a lossy
    /// WebP's chroma is upsampled from the rows and columns beside: at a crop's edge libwebp has none, and
    /// the edge's pixels would differ from the whole picture's) from an even column and row (libwebp's
    /// own), then trimmed to it; libwebp's filter thread on.
    public func region(x0: Int, y0: Int, x1: Int, y1: Int) throws(PreviewError) -> PreviewImage {
        let left = max(0, x0 - 4) & ~1, top = max(0, y0 - 4) & ~1
        let width = min(size.width, x1 + 4) - left, height = min(size.height, y1 + 4) - top
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .outOfMemory }
        config.options.use_threads = 1
        config.options.use_cropping = 1
        config.options.crop_left = Int32(left)
        config.options.crop_top = Int32(top)
        config.options.crop_width = Int32(width)
        config.options.crop_height = Int32(height)
        config.output.colorspace = MODE_RGB
        config.output.is_external_memory = 1
        let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
            config.output.u.RGBA.rgba = buffer.baseAddress
            config.output.u.RGBA.stride = Int32(width * 3)
            config.output.u.RGBA.size = buffer.count
            let status = bytes.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
            count = status == VP8_STATUS_OK ? buffer.count : 0
        }
        guard !pixels.isEmpty else { throw .damaged(format: "WebP", reason: "its data does not decode") }
        return PreviewImage(width: width, height: height, pixels: pixels).cropped(x: x0 - left, y: y0 - top, width: x1 - x0, height: y1 - y0)
    }
}
