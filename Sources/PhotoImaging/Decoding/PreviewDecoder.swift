import CJPEG

/// What a decode found: the file's own size, its orientation and the DCT scale used.
public struct PreviewDecodeInfo: Hashable, Sendable {
    /// The size the file declares, before orientation.
    public var sourceSize: PixelSize
    /// The EXIF orientation applied, 1...8 (1 when the file has none).
    public var orientation: Int
    /// The image was decoded at `scaleNumerator` / 8 before the area-averaging downscale.
    public var scaleNumerator: Int
    /// Whether the file is a progressive JPEG.
    public var isProgressive: Bool

    /// The size once stood upright.
    public var uprightSize: PixelSize {
        sourceSize.upright(exif: orientation)
    }
}

/// Decodes JPEGs into previews through the CJPEG target, so libjpeg's errors come back as values and
/// never unwind through Swift.
public struct PreviewDecoder: Sendable {
    /// Like yazi's `image_alloc`: 2^27 pixels is 512 MB as RGBA, far past any camera, and refuses a
    /// header that claims 65,535 × 65,535 before anything is allocated for it.
    public static let defaultPixelLimit = 1 << 27

    /// The most pixels a file may declare; larger ones fail with `tooLarge`.
    public var pixelLimit: Int

    /// A decoder that refuses files declaring more than `pixelLimit` pixels.
    public init(pixelLimit: Int = Self.defaultPixelLimit) {
        self.pixelLimit = pixelLimit
    }

    /// The image fitted inside `box` with its aspect kept (never enlarged), upright per its EXIF orientation.
    public func decode(_ bytes: [UInt8], fitting box: PixelSize) throws(PreviewError) -> (image: PreviewImage, info: PreviewDecodeInfo) {
        precondition(box.width > 0 && box.height > 0, "the box must not be empty")
        var info = cjpeg_decode_info()
        var output: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer { buffer in
            cjpeg_decode_fit(buffer.baseAddress, buffer.count, Int32(box.width), Int32(box.height), UInt64(pixelLimit),
                             &output, &info, &message, message.count)
        }
        return (try Self.image(status, output, info, message), Self.info(info))
    }

    /// What the header says (a one-pixel decode): the stored size, the orientation.
    public func header(_ bytes: [UInt8]) throws(PreviewError) -> PreviewDecodeInfo {
        try decodeRegion(bytes, x: 0, y: 0, width: 1, height: 1).info
    }

    /// The pixels of `region` of the upright image at full size (one image pixel per output pixel),
    /// decoding only what it needs: rows above are skipped, columns beside it cropped, rows below never
    /// read. The region is clipped to the image; `origin` is where the pixels returned start.
    public func decodeRegion(_ bytes: [UInt8], x: Int, y: Int, width: Int, height: Int) throws(PreviewError)
        -> (image: PreviewImage, originX: Int, originY: Int, info: PreviewDecodeInfo) {
        var info = cjpeg_decode_info()
        var output: UnsafeMutablePointer<UInt8>?
        var message = [CChar](repeating: 0, count: 200)
        var originX: Int32 = 0, originY: Int32 = 0
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else { throw .corrupt("the region is empty or too large") }
        let area = width.multipliedReportingOverflow(by: height)
        if !area.overflow, area.partialValue <= pixelLimit {
            // Decoded straight into the array: a band is never held twice. A region past the image's edge
            // leaves the end of the buffer unused.
            var status = CJPEG_OK
            let capacity = width * height * 3
            let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                status = bytes.withUnsafeBufferPointer { source in
                    cjpeg_decode_region_into(source.baseAddress, source.count, Int32(x), Int32(y), Int32(width), Int32(height), UInt64(pixelLimit),
                                             buffer.baseAddress, capacity, &info, &originX, &originY, &message, message.count)
                }
                count = status == CJPEG_OK ? Int(info.width) * Int(info.height) * 3 : 0
            }
            guard status == CJPEG_OK else { _ = try Self.image(status, nil, info, message); throw .outOfMemory }
            return (PreviewImage(width: Int(info.width), height: Int(info.height), pixels: pixels), Int(originX), Int(originY), Self.info(info))
        }
        let status = bytes.withUnsafeBufferPointer { buffer in
            cjpeg_decode_region(buffer.baseAddress, buffer.count, Int32(x), Int32(y), Int32(width), Int32(height), UInt64(pixelLimit),
                                &output, &info, &originX, &originY, &message, message.count)
        }
        return (try Self.image(status, output, info, message), Int(originX), Int(originY), Self.info(info))
    }

    /// The pixels a decode returned, freed once copied, or its failure as a `PreviewError`.
    private static func image(
        _ status: cjpeg_status, _ output: UnsafeMutablePointer<UInt8>?, _ info: cjpeg_decode_info, _ message: [CChar]
    ) throws(PreviewError) -> PreviewImage {
        switch status {
        case CJPEG_OK:
            guard let output else { throw .outOfMemory }
            defer { cjpeg_free(output) }
            let count = Int(info.width) * Int(info.height) * 3
            return PreviewImage(width: Int(info.width), height: Int(info.height), pixels: Array(UnsafeBufferPointer(start: output, count: count)))
        case CJPEG_ERR_NOT_JPEG: throw .notJPEG
        case CJPEG_ERR_TOO_MANY_PIXELS: throw .tooLarge(width: Int(info.source_width), height: Int(info.source_height))
        case CJPEG_ERR_MEMORY: throw .outOfMemory
        default: throw .corrupt(String(decoding: message.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
    }

    /// The DCT scale numerator (of 8) libjpeg decodes at for a target size: the smallest that is still
    /// at least as large.
    public static func scaleNumerator(source: PixelSize, target: PixelSize) -> Int {
        Int(cjpeg_scale_numerator(Int32(source.width), Int32(source.height), Int32(target.width), Int32(target.height)))
    }

    private static func info(_ info: cjpeg_decode_info) -> PreviewDecodeInfo {
        PreviewDecodeInfo(
            sourceSize: PixelSize(width: Int(info.source_width), height: Int(info.source_height)),
            orientation: Int(info.orientation), scaleNumerator: Int(info.scale_numerator), isProgressive: info.progressive != 0
        )
    }
}
