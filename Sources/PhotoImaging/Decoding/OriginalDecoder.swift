import Foundation
import CLibRaw
import CPNG
import CTIFF

/// Reads an original of any kind photopick knows into an `OriginalPicture`, through the library of
/// each format's field: libjpeg (CJPEG) for JPEG, LibRaw for camera RAW, libheif for HEIC, libavif
/// (with dav1d) for AVIF, libpng, libtiff and libwebp for the rest. The format comes from the bytes. Every decode is bounded
/// by `pixelLimit` before anything is allocated for it, and a damaged file is a `PreviewError`.
public struct OriginalDecoder: Sendable {
    /// The JPEG path, also for RAW previews; its pixel limit is this decoder's.
    public let jpeg: PreviewDecoder

    /// A decoder that refuses files declaring more than `pixelLimit` pixels.
    public init(pixelLimit: Int = PreviewDecoder.defaultPixelLimit) {
        jpeg = PreviewDecoder(pixelLimit: pixelLimit)
    }

    /// The most pixels a file may declare.
    public var pixelLimit: Int { jpeg.pixelLimit }

    /// The original in `bytes`, ready to show. Header-only for a JPEG and an 8-bit RGB TIFF (bands and
    /// regions are decoded as the loupe needs them); whole for the rest.
    public func prepare(_ bytes: [UInt8]) throws(PreviewError) -> OriginalPicture {
        guard let format = OriginalFormat.sniff(bytes) else { throw .unsupported }
        switch format {
        case .jpeg: return OriginalPicture(pixels: .jpeg(bytes), format: .jpeg, size: try jpeg.header(bytes).uprightSize)
        case .png:
            // An 8-bit RGB PNG inflated now and unfiltered as far down as the loupe looks; others whole.
            if let rows = try PNGRows.open(bytes, pixelLimit: pixelLimit) { return OriginalPicture(pixels: .regions(rows), format: .png, size: rows.size) }
            return decodedPicture(try png(bytes), .png)
        case .webp:
            let regions = try WebPRegions.open(bytes, pixelLimit: pixelLimit)
            return OriginalPicture(pixels: .regions(regions), format: .webp, size: regions.size)
        case .heic:
            // A grid (as phones write HEIC) is read a tile at a time as the loupe needs it; one picture whole.
            if let tiles = try HEIFTiles.open(bytes, format: format, pixelLimit: pixelLimit) {
                return OriginalPicture(pixels: .regions(tiles), format: format, size: tiles.size)
            }
            return decodedPicture(try heif(bytes, format), format)
        case .avif:
            let picture = try AVIFPicture.open(bytes, pixelLimit: pixelLimit)
            return OriginalPicture(pixels: .regions(picture), format: format, size: picture.size)
        case .raw:
            guard let picture = try raw(bytes) else { throw .damaged(format: "RAW", reason: "LibRaw does not read it") }
            return picture
        case .tiff:
            // DNG, CR2, NEF and ARW are TIFF-shaped: LibRaw first, libtiff for a plain TIFF, and for one
            // LibRaw stumbles on, decoded whole so a file damaged anywhere is refused now, not at the
            // loupe's first pan. A file neither reads gives LibRaw's reason.
            let rawPicture: OriginalPicture?
            do {
                rawPicture = try raw(bytes)
            } catch {
                guard let image = try? tiff(bytes) else { throw error }
                return decodedPicture(image, .tiff)
            }
            if let rawPicture { return rawPicture }
            return try tiffPicture(bytes)
        }
    }

    /// Whether the original in `bytes` opens, read through as far as its format lets a reader: a JPEG
    /// decoded at its smallest DCT scale (every coefficient is still read), a camera RAW's sensor data
    /// unpacked and its embedded preview decoded, the rest decoded whole. The format, or nil for bytes
    /// of no format photopick reads (a video, a document), which there is nothing to check in. Throws
    /// why it does not open.
    public func verify(_ bytes: [UInt8]) throws(PreviewError) -> OriginalFormat? {
        guard let format = OriginalFormat.sniff(bytes) else { return nil }
        switch format {
        case .jpeg: _ = try jpeg.decode(bytes, fitting: PixelSize(width: 1, height: 1))
        case .raw: try verifyRaw(bytes)
        case .tiff:
            // A TIFF-shaped RAW is checked as a RAW; a plain TIFF (LibRaw does not take it) decoded.
            if try verifyRaw(bytes) == false { _ = try tiff(bytes) }
        case .heic: _ = try heif(bytes, format)  // every tile of a grid, which `prepare` leaves for the loupe
        case .png: _ = try png(bytes)  // libpng reads every row, where `prepare` leaves them for the loupe
        case .webp:
            // Decoded whole, where `prepare` reads only the header.
            let picture = try WebPRegions.open(bytes, pixelLimit: pixelLimit)
            _ = try picture.region(x0: 0, y0: 0, x1: picture.size.width, y1: picture.size.height)
        case .avif: _ = try prepare(bytes)
        }
        return format
    }

    /// Unpacks a RAW's sensor data and decodes its preview; false when LibRaw does not take the file.
    @discardableResult
    private func verifyRaw(_ bytes: [UInt8]) throws(PreviewError) -> Bool {
        let taken = try withRaw(bytes) { (raw, info) throws(PreviewError) -> Void in
            guard Int(info.raw_width) * Int(info.raw_height) <= pixelLimit else {
                throw .tooLarge(width: Int(info.width), height: Int(info.height))
            }
            let code = craw_verify_data(raw)
            guard code == 0 else { throw .damaged(format: "RAW", reason: Self.text(libraw_strerror(code))) }
        } != nil
        guard taken else { return false }
        // The preview the loupe shows, when there is one, is read through too.
        if case .jpeg(let preview) = try prepare(bytes).pixels { _ = try jpeg.decode(preview, fitting: PixelSize(width: 1, height: 1)) }
        return true
    }

    private func decodedPicture(_ image: PreviewImage, _ format: OriginalFormat) -> OriginalPicture {
        OriginalPicture(pixels: .decoded(image), format: format, size: image.size)
    }

    // MARK: - The formats

    private func png(_ bytes: [UInt8]) throws(PreviewError) -> PreviewImage {
        var output: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer {
            cpng_decode_rgb($0.baseAddress, $0.count, UInt64(pixelLimit), &output, &width, &height, &message, message.count)
        }
        switch status {
        case 0:
            guard let output else { throw .outOfMemory }
            defer { free(output) }
            return PreviewImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: output, count: Int(width) * Int(height) * 3)))
        default: throw Self.failure(status, width: width, height: height, format: "PNG", message: message)
        }
    }

    /// The largest strip or tile, decoded, of a TIFF read a region at a time: 4 MB, a 24 MP frame's
    /// strips of 64 rows or tiles of 1024 × 1024.
    package static let largestPieceReadByRegions = 4 << 20

    /// The TIFF in `bytes` opened (its messages silenced) for `body`, with its first image's size as
    /// stored.
    private static func withTIFF<Result>(
        _ bytes: [UInt8], _ body: (OpaquePointer, UInt32, UInt32) throws(PreviewError) -> Result
    ) throws(PreviewError) -> Result {
        try bytes.withUnsafeBufferPointer { (source) throws(PreviewError) -> Result in
            var buffer = ctiff_buffer(data: source.baseAddress, length: source.count, position: 0)
            guard let tiff = ctiff_open(&buffer) else { throw .damaged(format: "TIFF", reason: "libtiff does not read its header") }
            defer { TIFFClose(tiff) }
            var width: UInt32 = 0, height: UInt32 = 0
            ctiff_size_of(tiff, &width, &height)
            guard width > 0, height > 0 else { throw .damaged(format: "TIFF", reason: "it has no size") }
            return try body(tiff, width, height)
        }
    }

    /// A plain TIFF, opened once: stored as 8-bit RGB in strips or tiles of a few megabytes, made ready
    /// to be read a region at a time (only the strips or tiles under the loupe are decoded); else
    /// decoded whole.
    private func tiffPicture(_ bytes: [UInt8]) throws(PreviewError) -> OriginalPicture {
        try Self.withTIFF(bytes) { (tiff, width, height) throws(PreviewError) -> OriginalPicture in
            try check(Int(width), Int(height))
            var orientation: Int32 = 1
            // A strip or tile is decoded whole for each region it touches: one of several megabytes (a
            // TIFF in one compressed strip, say) would be decoded again at every pan, so that file is
            // decoded once.
            let piece = TIFFIsTiled(tiff) != 0 ? TIFFTileSize(tiff) : TIFFStripSize(tiff)
            guard ctiff_is_rgb8(tiff, &orientation) == 1, piece > 0, piece <= Self.largestPieceReadByRegions else {
                return decodedPicture(try Self.decodeWhole(tiff, width, height), .tiff)
            }
            let stored = PixelSize(width: Int(width), height: Int(height))
            return OriginalPicture(pixels: .tiff(bytes, stored: stored, orientation: Int(orientation)), format: .tiff, size: stored.upright(exif: Int(orientation)))
        }
    }

    /// The rectangle `x`, `y`, `width` × `height` of a TIFF's first image as stored (before its
    /// orientation), which must lie inside it, decoding only the strips or tiles it touches.
    static func tiffRegion(_ bytes: [UInt8], x: Int, y: Int, width: Int, height: Int) throws(PreviewError) -> PreviewImage {
        try withTIFF(bytes) { (tiff, fullWidth, fullHeight) throws(PreviewError) -> PreviewImage in
            var orientation: Int32 = 1, status: Int32 = -1
            let pixels = [UInt8](unsafeUninitializedCapacity: width * height * 3) { buffer, count in
                status = ctiff_read_rgb8_region(
                    tiff, fullWidth, fullHeight, UInt32(x), UInt32(y), UInt32(width), UInt32(height), buffer.baseAddress, &orientation
                )
                count = status == 1 ? buffer.count : 0
            }
            guard status == 1 else { throw .damaged(format: "TIFF", reason: "its data does not decode") }
            return PreviewImage(width: width, height: height, pixels: pixels)
        }
    }

    /// A TIFF decoded whole and stood upright.
    private func tiff(_ bytes: [UInt8]) throws(PreviewError) -> PreviewImage {
        try Self.withTIFF(bytes) { (tiff, width, height) throws(PreviewError) -> PreviewImage in
            try check(Int(width), Int(height))
            return try Self.decodeWhole(tiff, width, height)
        }
    }

    /// The open TIFF's first image, decoded whole and stood upright: straight into RGB when it is
    /// stored as 8-bit RGB, else through libtiff's RGBA reader.
    private static func decodeWhole(_ tiff: OpaquePointer, _ width: UInt32, _ height: UInt32) throws(PreviewError) -> PreviewImage {
        var orientation: Int32 = 1
        var status: Int32 = -1
        var pixels = [UInt8](unsafeUninitializedCapacity: Int(width) * Int(height) * 3) { buffer, count in
            status = ctiff_read_rgb8_region(tiff, width, height, 0, 0, width, height, buffer.baseAddress, &orientation)
            count = status == 1 ? buffer.count : 0
        }
        if status == -1 {
            // Another layout (16-bit, palette, CMYK, YCbCr, planes apart): libtiff's RGBA reader.
            var rgba = [UInt32](repeating: 0, count: Int(width) * Int(height))
            guard ctiff_read_rgba_stored(tiff, width, height, &rgba, &orientation) == 1 else {
                throw .damaged(format: "TIFF", reason: "its data does not decode")
            }
            pixels = [UInt8](repeating: 0, count: rgba.count * 3)
            for (index, pixel) in rgba.enumerated() {
                // libtiff packs ABGR: red in the low byte.
                pixels[index * 3] = UInt8(truncatingIfNeeded: pixel)
                pixels[index * 3 + 1] = UInt8(truncatingIfNeeded: pixel >> 8)
                pixels[index * 3 + 2] = UInt8(truncatingIfNeeded: pixel >> 16)
            }
        } else if status != 1 {
            throw .damaged(format: "TIFF", reason: "its data does not decode")
        }
        return PreviewImage(width: Int(width), height: Int(height), pixels: pixels).oriented(exif: Int(orientation))
    }

    /// A RAW through LibRaw: its embedded JPEG preview when that is at least half the sensor's long edge
    /// (what a half-size demosaic would give, in milliseconds instead of seconds), else, or when the
    /// preview is damaged, a half-size demosaic. Nil when LibRaw does not take the file (a plain TIFF).
    private func raw(_ bytes: [UInt8]) throws(PreviewError) -> OriginalPicture? {
        try withRaw(bytes) { (raw, info) throws(PreviewError) -> OriginalPicture in
            var code: Int32 = 0
            // The preview's format is known only once unpacked: a bitmap preview gives way to the demosaic.
            if 2 * max(Int(info.thumb_width), Int(info.thumb_height)) >= max(Int(info.width), Int(info.height)) {
                var length = 0
                if let preview = craw_preview_jpeg(raw, &length, &code) {
                    defer { free(preview) }
                    if let picture = try? self.preview(Array(UnsafeBufferPointer(start: preview, count: length)), flip: Int(info.flip)) {
                        return picture
                    }
                }
            }
            let turned = info.flip & 4 != 0
            guard Int(info.raw_width) * Int(info.raw_height) <= pixelLimit else {
                throw .tooLarge(width: Int(turned ? info.height : info.width), height: Int(turned ? info.width : info.height))
            }
            guard let image = craw_demosaic_half(raw, &code) else {
                if code == LIBRAW_UNSUFFICIENT_MEMORY.rawValue { throw .outOfMemory }
                throw .damaged(format: "RAW", reason: Self.text(libraw_strerror(code)))
            }
            defer { libraw_dcraw_clear_mem(image) }
            let width = Int(image.pointee.width), height = Int(image.pointee.height)
            let pixels = Array(UnsafeBufferPointer(start: craw_image_pixels(image), count: width * height * 3))
            return OriginalPicture(pixels: .decoded(PreviewImage(width: width, height: height, pixels: pixels)), format: .raw,
                                   size: PixelSize(width: width, height: height), note: "50% demosaic")
        }
    }

    /// `body` with the RAW in `bytes` opened by LibRaw and its header read; nil when LibRaw does not take
    /// the file (a plain TIFF), and its reason when it is damaged.
    private func withRaw<Result>(
        _ bytes: [UInt8], _ body: (UnsafeMutablePointer<libraw_data_t>, craw_info) throws(PreviewError) -> Result
    ) throws(PreviewError) -> Result? {
        try bytes.withUnsafeBufferPointer { (source) throws(PreviewError) -> Result? in
            var info = craw_info()
            var code: Int32 = 0
            guard let raw = craw_open(source.baseAddress, source.count, &info, &code) else {
                if code == LIBRAW_FILE_UNSUPPORTED.rawValue { return nil }
                throw .damaged(format: "RAW", reason: Self.text(libraw_strerror(code)))
            }
            defer { libraw_close(raw) }
            return try body(raw, info)
        }
    }

    /// A RAW's JPEG preview, upright: by its own Exif orientation when it has one (the JPEG path applies
    /// it, band by band), else by the RAW's `flip`, decoded whole once and turned.
    private func preview(_ bytes: [UInt8], flip: Int) throws(PreviewError) -> OriginalPicture {
        let header = try jpeg.header(bytes), orientation = Self.exifOrientation(flip: flip)
        let note = { (size: PixelSize) in "embedded preview \(size.width)×\(size.height)" }
        if header.orientation != 1 || orientation == 1 {
            return OriginalPicture(pixels: .jpeg(bytes), format: .raw, size: header.uprightSize, note: note(header.uprightSize))
        }
        let image = try jpeg.decode(bytes, fitting: header.sourceSize).image.oriented(exif: orientation)
        return OriginalPicture(pixels: .decoded(image), format: .raw, size: image.size, note: note(image.size))
    }

    /// LibRaw's (dcraw's) `flip` as an EXIF orientation: bit 4 transposes, bit 2 mirrors the rows' order,
    /// bit 1 each row.
    static func exifOrientation(flip: Int) -> Int {
        [1, 2, 4, 3, 5, 8, 6, 7][flip & 7]
    }

    func check(_ width: Int, _ height: Int) throws(PreviewError) {
        guard width > 0, height > 0 else { throw .damaged(format: "image", reason: "it has no size") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= pixelLimit, width <= 1 << 20, height <= 1 << 20 else {
            throw .tooLarge(width: width, height: height)
        }
    }

    /// A library's message as one line: libheif's end in a newline.
    /// The error a C decoder's status stands for, shared by CPNG's and CAVIF's: -2 more pixels than the
    /// limit (`width` × `height`), -3 out of memory, any other a damaged file of `format` (`message` why).
    static func failure(_ status: Int32, width: Int32, height: Int32, format: String, message: [CChar]) -> PreviewError {
        switch status {
        case -2: .tooLarge(width: Int(width), height: Int(height))
        case -3: .outOfMemory
        default: .damaged(format: format, reason: text(message))
        }
    }

    static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func text(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown error"
    }
}
