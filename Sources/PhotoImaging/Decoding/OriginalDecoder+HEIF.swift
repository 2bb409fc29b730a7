import CHeif

/// HEIC through libheif: one picture decoded whole, a grid (`HEIFTiles`) a tile at a time.
extension OriginalDecoder {
    /// libheif's plugins (the libde265 decoder among them) loaded once, before the first file.
    private static let initialised: Bool = heif_init(nil).code == heif_error_Ok

    /// What libheif lacks to show HEIC originals, with its fix, or nil: its decoders are plugins, packaged
    /// apart on Debian.
    public static var missingHEICDecoder: String? {
        guard !(initialised && heif_have_decoder_for_format(heif_compression_HEVC) != 0) else { return nil }
        return "libheif has no HEVC decoder, so HEIC originals cannot be shown; install libheif-plugin-libde265"
    }

    /// The primary image of the HEIF in `bytes` for `body`, checked against `pixelLimit`.
    static func withPrimaryHEIF<Result>(
        _ bytes: [UInt8], format: OriginalFormat, pixelLimit: Int, _ body: (OpaquePointer, OpaquePointer) throws(PreviewError) -> Result
    ) throws(PreviewError) -> Result {
        guard initialised, let context = heif_context_alloc() else { throw .outOfMemory }
        defer { heif_context_free(context) }
        // libheif refuses larger images itself; the primary image is then checked against the limit.
        heif_context_set_maximum_image_size_limit(context, 65_535)
        return try bytes.withUnsafeBufferPointer { (buffer) throws(PreviewError) -> Result in
            var error = heif_context_read_from_memory_without_copy(context, buffer.baseAddress, buffer.count, nil)
            guard error.code == heif_error_Ok else { throw damaged(format, error) }
            var handle: OpaquePointer?
            error = heif_context_get_primary_image_handle(context, &handle)
            guard error.code == heif_error_Ok, let handle else { throw damaged(format, error) }
            defer { heif_image_handle_release(handle) }
            try OriginalDecoder(pixelLimit: pixelLimit).check(Int(heif_image_handle_get_width(handle)), Int(heif_image_handle_get_height(handle)))
            return try body(context, handle)
        }
    }

    /// The primary image decoded whole, with its own transformations (rotation, mirroring, crop)
    /// applied by libheif: never turned again by Exif.
    func heif(_ bytes: [UInt8], _ format: OriginalFormat) throws(PreviewError) -> PreviewImage {
        try Self.withPrimaryHEIF(bytes, format: format, pixelLimit: pixelLimit) { (_, handle) throws(PreviewError) -> PreviewImage in
            var image: OpaquePointer?
            let error = try Self.withStrictOptions { heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, $0) }
            guard error.code == heif_error_Ok, let image else { throw Self.damaged(format, error) }
            defer { heif_image_release(image) }
            return try Self.pixels(of: image, format: format)
        }
    }

    /// libheif's decoding options for `body`, with `strict_decoding`: from libheif 1.21 a grid's damaged
    /// or missing tiles are left blank unless it is set, and such a file must be refused, not shown with
    /// holes (nor pass `get`'s check); 1.19 refuses them either way, and strictly also refuses an HEVC
    /// stream with colour codes it does not know. `asStored` for a tile read without the picture's
    /// rotation and mirroring.
    static func withStrictOptions<Result>(asStored: Bool = false, _ body: (UnsafeMutablePointer<heif_decoding_options>) throws(PreviewError) -> Result) throws(PreviewError) -> Result {
        guard let options = heif_decoding_options_alloc() else { throw .outOfMemory }
        defer { heif_decoding_options_free(options) }
        options.pointee.strict_decoding = 1
        options.pointee.ignore_transformations = asStored ? 1 : 0
        return try body(options)
    }

    /// A decoded libheif image's interleaved RGB plane as packed rows.
    static func pixels(of image: OpaquePointer, format: OriginalFormat) throws(PreviewError) -> PreviewImage {
        let width = Int(heif_image_get_width(image, heif_channel_interleaved)), height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .damaged(format: format.name, reason: "it holds no picture")
        }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { target in
            for row in 0..<height {
                target.baseAddress!.advanced(by: row * width * 3).update(from: plane.advanced(by: row * Int(stride)), count: width * 3)
            }
        }
        return PreviewImage(width: width, height: height, pixels: pixels)
    }

    /// libheif's error as a damaged file of `format`.
    static func damaged(_ format: OriginalFormat, _ error: heif_error) -> PreviewError {
        .damaged(format: format.name, reason: text(error.message))
    }

    /// Whether a rendition should stand in while the original in `bytes` is made ready: its first view
    /// waits for a whole decode (a HEIC of one picture, an AVIF's frame, a RAW's demosaic when its preview
    /// is too small, a PNG of another kind) or, for an 8-bit RGB PNG past 12 MP, for its one stream to
    /// inflate (100 ms and more). A JPEG, a TIFF, a WebP and a HEIC grid show their first view as soon.
    public static func standsInFirst(_ bytes: [UInt8]) -> Bool {
        switch OriginalFormat.sniff(bytes) {
        case .jpeg?, .tiff?, .webp?, nil: false
        case .heic?: (try? HEIFTiles.open(bytes, format: .heic, pixelLimit: Int.max)) == nil
        case .png?: !PNGRows.takes(bytes) || PNGRows.pixels(bytes) > 12_000_000
        case .avif?, .raw?: true
        }
    }
}
