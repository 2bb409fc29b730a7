import CHeif
import CJPEG
import CPNG
import CSceneRender
import CTIFF
import CWebP
import Foundation

/// The kinds of original the demo library holds, as phones, cameras and exports write them (issue 39):
/// each file weighs exactly the `bytes` its metadata gives, as the JPEGs always have.
enum OriginalKind: String, Sendable, CaseIterable {
    case jpeg, heic, dng, png, tiff, webp, avif

    var mimeType: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .heic: "image/heic"
        case .dng: "image/x-adobe-dng"
        case .png: "image/png"
        case .tiff: "image/tiff"
        case .webp: "image/webp"
        case .avif: "image/avif"
        }
    }

    /// An export from an editor rather than a camera's file: at most 2048 pixels long in the demo.
    var isExport: Bool { [.png, .tiff, .webp, .avif].contains(self) }

    init?(mimeType: String) {
        guard let kind = Self.allCases.first(where: { $0.mimeType == mimeType }) else { return nil }
        self = kind
    }

    /// The file's extension as the camera or phone writes it.
    var fileExtension: String {
        switch self {
        case .jpeg: "JPG"
        case .heic: "HEIC"
        case .dng: "DNG"
        case .png: "png"
        case .tiff: "tif"
        case .webp: "webp"
        case .avif: "avif"
        }
    }

    /// The bytes a `width` × `height` original of this kind is given, which its encoding always fits
    /// under: PNG and DNG by construction (a PNG never outgrows its raw rows, a DNG's preview is bounded),
    /// HEIC by lowering the quality until it does. `bitsPerPixel` is the JPEG's own draw, so each kind
    /// varies as the JPEGs do.
    func bytes(width: Int, height: Int, bitsPerPixel: Double) -> Int64 {
        let pixels = Double(width * height)
        switch self {
        case .jpeg: return Int64(pixels * bitsPerPixel / 8) + 4096
        // x265 at quality 50 takes about half what a JPEG of the same look does.
        case .heic: return Int64(pixels * bitsPerPixel / 16) + 4096
        // 16-bit CFA samples, then the full-size preview at up to 6 bits a pixel.
        case .dng: return Int64(pixels * 2 + pixels * 6 / 8) + 65536
        case .png: return Int64(pixels * 3) + Int64(height) + 65536 + 4096
        // Uncompressed 8-bit RGB strips, as an editor's export without compression writes them.
        case .tiff: return Int64(pixels * 3) + 65536 + 4096
        // libwebp at quality 80 and AV1 at 50 take about a third and a half of a JPEG's bytes.
        case .webp: return (Int64(pixels * bitsPerPixel / 12) + 4096) & ~1
        case .avif: return Int64(pixels * bitsPerPixel / 16) + 4096
        }
    }
}

/// Encodes a demo original of any kind from its scene.
enum OriginalEncoder {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `render` gives the scene's pixels: by default rendered anew, or from a cache shared by encodes.
    static func encode(_ photo: PhotoRecord, render: SceneRender = JPEGEncoder.render) throws -> [UInt8] {
        let scene = SceneDesign(photo)
        let length = Int(photo.bytes)
        switch OriginalKind(mimeType: photo.mimeType) ?? .jpeg {
        case .jpeg:
            return try JPEGEncoder.encode(scene, width: photo.width, height: photo.height, exactLength: length, render: render)
        case .png:
            let pixels = try render(scene, photo.width, photo.height)
            return try png(pixels, width: photo.width, height: photo.height, exactLength: length)
        case .heic, .avif:
            let pixels = try render(scene, photo.width, photo.height)
            let kind = OriginalKind(mimeType: photo.mimeType) ?? .heic
            return try heif(pixels, width: photo.width, height: photo.height, av1: kind == .avif, exactLength: length)
        case .tiff:
            let pixels = try render(scene, photo.width, photo.height)
            return try tiff(pixels, width: photo.width, height: photo.height, exactLength: length)
        case .webp:
            let pixels = try render(scene, photo.width, photo.height)
            return try webp(pixels, width: photo.width, height: photo.height, exactLength: length)
        case .dng:
            return try dng(scene, photo, exactLength: length, render: render)
        }
    }

    static func png(_ pixels: [UInt8], width: Int, height: Int, exactLength length: Int) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var written = 0
        let status = cpng_encode_rgb_padded(pixels, Int32(width), Int32(height), 1, length, &output, &written)
        guard status == 0, let output else { throw Failure(description: "PNG encoding failed (\(status)) for \(width)×\(height) in \(length) bytes") }
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: written))
    }

    /// An uncompressed RGB TIFF through libtiff; zeros after its last strip make up the length, which
    /// TIFF readers, going by offsets, never reach.
    static func tiff(_ pixels: [UInt8], width: Int, height: Int, exactLength length: Int) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appending(path: "photopick-tiff-\(UUID().uuidString).tif").path
        defer { unlink(path) }
        guard ctiff_write_rgb(path, pixels, UInt32(width), UInt32(height)) == 1, let data = FileManager.default.contents(atPath: path) else {
            throw Failure(description: "TIFF encoding failed for \(width)×\(height)")
        }
        guard data.count <= length else { throw Failure(description: "a \(width)×\(height) TIFF does not fit in \(length) bytes") }
        return [UInt8](data) + [UInt8](repeating: 0, count: length - data.count)
    }

    /// A lossy WebP through libwebp, lowering the quality until it fits; the rest is a chunk of its own
    /// after the picture's, inside the RIFF container (readers skip chunks they do not know).
    static func webp(_ pixels: [UInt8], width: Int, height: Int, exactLength length: Int) throws -> [UInt8] {
        var quality: Float = 80
        while true {
            var output: UnsafeMutablePointer<UInt8>?
            let size = WebPEncodeRGB(pixels, Int32(width), Int32(height), Int32(width * 3), quality, &output)
            guard size > 0, let output else { throw Failure(description: "WebP encoding failed for \(width)×\(height)") }
            var encoded = Array(UnsafeBufferPointer(start: output, count: size))
            WebPFree(output)
            // RIFF chunks are of even size, as is the file; `bytes` gives a WebP an even length too.
            let gap = length - encoded.count
            if gap == 0 { return encoded }
            if gap >= 8, gap % 2 == 0 {
                encoded += Array("PADD".utf8) + Self.littleEndian(UInt32(gap - 8)) + [UInt8](repeating: 0, count: gap - 8)
                encoded.replaceSubrange(4..<8, with: Self.littleEndian(UInt32(encoded.count - 8)))
                return encoded
            }
            guard quality > 5 else { throw Failure(description: "a \(width)×\(height) WebP does not fit in \(length) bytes") }
            quality = max(5, quality - 15)
        }
    }

    private static func littleEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// A HEIC through libheif's x265 encoder at its fastest preset (a grid of `heicTile` tiles past one
    /// tile, as phones write it), or an AVIF through its AV1 encoder
    /// (aom) at its fastest speed, lowering the quality until the file fits; the rest is a `free` box at
    /// the end, which every ISOBMFF reader skips.
    static func heif(_ pixels: [UInt8], width: Int, height: Int, av1: Bool = false, exactLength length: Int) throws -> [UInt8] {
        var quality = 50
        while true {
            let encoded = try heif(pixels, width: width, height: height, quality: quality, av1: av1)
            let gap = length - encoded.count
            if gap == 0 { return encoded }
            if gap >= 8 {
                let size = UInt32(gap)
                return encoded + [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                    + Array("free".utf8) + [UInt8](repeating: 0, count: gap - 8)
            }
            guard quality > 5 else { throw Failure(description: "a \(width)×\(height) \(av1 ? "AVIF" : "HEIC") does not fit in \(length) bytes") }
            quality = max(5, quality - 15)
        }
    }

    /// The side of a HEIC's tiles: phones store a photo as a grid of 512 × 512 HEVC pictures (an iPhone's
    /// 12 MP frame is 8 × 6 of them), which a reader can decode a tile at a time.
    static let heicTile = 512

    /// libheif's plugins (x265 and aom among them) loaded once, before the first encode.
    static let heifReady: Bool = heif_init(nil).code == heif_error_Ok

    static func heif(_ pixels: [UInt8], width: Int, height: Int, quality: Int, av1: Bool = false, grid: Bool = true) throws -> [UInt8] {
        func check(_ error: heif_error, _ what: String) throws {
            guard error.code != heif_error_Ok else { return }
            let message = error.message.map { String(cString: $0) } ?? "code \(error.code.rawValue)"
            throw Failure(description: "\(av1 ? "AVIF" : "HEIC") encoding failed at \(what): \(message)")
        }
        guard heifReady, let context = heif_context_alloc() else { throw Failure(description: "libheif: no context") }
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        if av1 {
            try check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder), "the AV1 encoder (libheif's aom plugin)")
        } else {
            try check(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder), "the HEVC encoder (libheif's x265 plugin)")
        }
        defer { heif_encoder_release(encoder) }
        try check(heif_encoder_set_lossy_quality(encoder, Int32(quality)), "quality")
        if av1 {
            try check(heif_encoder_set_parameter(encoder, "speed", "9"), "aom's speed")
        } else {
            try check(heif_encoder_set_parameter(encoder, "preset", "ultrafast"), "x265's preset")
        }
        /// The picture's part from (`x`, `y`) of `tileWidth` × `tileHeight`, its last row and column repeated past its edges.
        func picture(x: Int, y: Int, tileWidth: Int, tileHeight: Int) throws -> OpaquePointer {
            var image: OpaquePointer?
            try check(heif_image_create(Int32(tileWidth), Int32(tileHeight), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image), "the image")
            guard let image else { throw Failure(description: "libheif: no image") }
            var stride: Int32 = 0
            guard heif_image_add_plane(image, heif_channel_interleaved, Int32(tileWidth), Int32(tileHeight), 8).code == heif_error_Ok,
                  let plane = heif_image_get_plane(image, heif_channel_interleaved, &stride) else {
                heif_image_release(image)
                throw Failure(description: "libheif: no plane")
            }
            pixels.withUnsafeBufferPointer { source in
                for row in 0..<tileHeight {
                    let target = plane + row * Int(stride), from = source.baseAddress! + (min(y + row, height - 1) * width + x) * 3
                    let inside = min(tileWidth, width - x)
                    target.update(from: from, count: inside * 3)
                    for column in inside..<tileWidth { (target + column * 3).update(from: from + (inside - 1) * 3, count: 3) }
                }
            }
            return image
        }
        if av1 || !grid || (width <= Self.heicTile && height <= Self.heicTile) {
            let image = try picture(x: 0, y: 0, tileWidth: width, tileHeight: height)
            defer { heif_image_release(image) }
            var handle: OpaquePointer?
            try check(heif_context_encode_image(context, image, encoder, nil, &handle), "encoding")
            heif_image_handle_release(handle)
        } else {
            let tile = Self.heicTile
            let columns = (width + tile - 1) / tile, rows = (height + tile - 1) / tile
            var grid: OpaquePointer?
            // libheif 1.19.7 reads the options without checking for none: its defaults, given.
            let options = heif_encoding_options_alloc()
            defer { heif_encoding_options_free(options) }
            try check(heif_context_add_grid_image(context, UInt32(width), UInt32(height), UInt32(columns), UInt32(rows), options, &grid), "the grid")
            defer { heif_image_handle_release(grid) }
            for row in 0..<rows {
                for column in 0..<columns {
                    let image = try picture(x: column * tile, y: row * tile, tileWidth: tile, tileHeight: tile)
                    defer { heif_image_release(image) }
                    try check(heif_context_add_image_tile(context, grid, UInt32(column), UInt32(row), image, encoder), "tile \(column),\(row)")
                }
            }
            heif_context_set_primary_image(context, grid)
        }
        let path = FileManager.default.temporaryDirectory.appending(path: "photopick-heif-\(UUID().uuidString).\(av1 ? "avif" : "heic")").path
        defer { unlink(path) }
        try check(heif_context_write_to_file(context, path), "writing")
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "libheif wrote nothing") }
        return [UInt8](data)
    }

    /// A DNG as a camera writes it: a portrait frame stored on its side (the sensor's landscape) with
    /// orientation 6, and a full-size preview at the highest quality that fits; zeros after the last
    /// IFD's data make up the length, which TIFF readers never reach.
    static func dng(
        _ scene: SceneDesign, _ photo: PhotoRecord, exactLength length: Int, render: SceneRender = JPEGEncoder.render
    ) throws -> [UInt8] {
        let upright = try render(scene, photo.width, photo.height)
        let portrait = photo.height > photo.width
        let stored = portrait ? turnedForOrientation6(upright, width: photo.width, height: photo.height) : upright
        let (width, height) = portrait ? (photo.height, photo.width) : (photo.width, photo.height)
        var quality = 90
        while true {
            let file = try DNGWriter.dng(
                pixels: stored, width: width, height: height, orientation: portrait ? 6 : 1, previewQuality: quality,
                make: photo.cameraMake ?? "PhotoPick", model: photo.cameraModel ?? "Demo"
            )
            if file.count <= length { return file + [UInt8](repeating: 0, count: length - file.count) }
            guard quality > 30 else { throw Failure(description: "a \(width)×\(height) DNG does not fit in \(length) bytes") }
            quality -= 20
        }
    }

    /// The stored pixels of an upright `width` × `height` picture whose orientation is 6.
    static func turnedForOrientation6(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: pixels.count)
        cjpeg_turn_for_orientation6(pixels, Int32(width), Int32(height), &out)
        return out
    }
}
