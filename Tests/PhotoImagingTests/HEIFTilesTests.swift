import CHeif
import Foundation
import PhotoImaging
import PhotoPickTestSupport
import Testing

/// A HEIC stored as a grid of tiles, as phones write it, is read a tile at a time: each region equals
/// the same part of the picture libheif decodes whole, in every rotation and mirroring, and costs only
/// the tiles under it.
struct HEIFTilesTests {
    /// `image` as a HEIC grid of `tile` × `tile` HEVC pictures (the last row and column padded, as the
    /// grid crops them), turned `angle` quarter turns anticlockwise (`irot`) then mirrored (`imir`: 0 top
    /// to bottom, 1 left to right).
    static func grid(_ image: PreviewImage, tile: Int, angle: Int = 0, mirror: Int? = nil, quality: Int = 90) -> [UInt8] {
        _ = heif_init(nil)
        let context = heif_context_alloc()!
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        precondition(heif_context_get_encoder_for_format(context, heif_compression_HEVC, &encoder).code == heif_error_Ok)
        defer { heif_encoder_release(encoder) }
        heif_encoder_set_lossy_quality(encoder, Int32(quality))
        heif_encoder_set_parameter(encoder, "preset", "ultrafast")
        let columns = (image.width + tile - 1) / tile, rows = (image.height + tile - 1) / tile
        var grid: OpaquePointer?
        let options = heif_encoding_options_alloc()
        defer { heif_encoding_options_free(options) }
        precondition(heif_context_add_grid_image(context, UInt32(image.width), UInt32(image.height), UInt32(columns), UInt32(rows), options, &grid).code == heif_error_Ok)
        defer { heif_image_handle_release(grid) }
        for row in 0..<rows {
            for column in 0..<columns {
                var picture: OpaquePointer?
                precondition(heif_image_create(Int32(tile), Int32(tile), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &picture).code == heif_error_Ok)
                defer { heif_image_release(picture) }
                heif_image_add_plane(picture, heif_channel_interleaved, Int32(tile), Int32(tile), 8)
                var stride: Int32 = 0
                let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride)!
                for y in 0..<tile {
                    for x in 0..<tile {
                        let pixel = image[min(column * tile + x, image.width - 1), min(row * tile + y, image.height - 1)]
                        plane[y * Int(stride) + x * 3] = pixel.red
                        plane[y * Int(stride) + x * 3 + 1] = pixel.green
                        plane[y * Int(stride) + x * 3 + 2] = pixel.blue
                    }
                }
                precondition(heif_context_add_image_tile(context, grid, UInt32(column), UInt32(row), picture, encoder).code == heif_error_Ok)
            }
        }
        let id = heif_image_handle_get_item_id(grid)
        if angle != 0 { precondition(heif_item_add_raw_property(context, id, fourcc("irot"), nil, [UInt8(angle)], 1, 1, nil).code == heif_error_Ok) }
        if let mirror { precondition(heif_item_add_raw_property(context, id, fourcc("imir"), nil, [UInt8(mirror)], 1, 1, nil).code == heif_error_Ok) }
        heif_context_set_primary_image(context, grid)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photopick-\(UUID().uuidString).heic").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        precondition(heif_context_write_to_file(context, path).code == heif_error_Ok)
        return Array(FileManager.default.contents(atPath: path)!)
    }

    static func fourcc(_ text: String) -> UInt32 {
        text.utf8.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// The picture as libheif decodes it whole, its transformations applied: what every region is checked against.
    static func whole(_ bytes: [UInt8]) throws -> PreviewImage {
        let context = heif_context_alloc()!
        defer { heif_context_free(context) }
        _ = bytes.withUnsafeBufferPointer { heif_context_read_from_memory_without_copy(context, $0.baseAddress, $0.count, nil) }
        var handle: OpaquePointer?
        try #require(heif_context_get_primary_image_handle(context, &handle).code == heif_error_Ok)
        defer { heif_image_handle_release(handle) }
        var image: OpaquePointer?
        try #require(heif_decode_image(handle, &image, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil).code == heif_error_Ok)
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved)), height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        let plane = try #require(heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride))
        var pixels: [UInt8] = []
        for row in 0..<height { pixels += UnsafeBufferPointer(start: plane + row * Int(stride), count: width * 3) }
        return PreviewImage(width: width, height: height, pixels: pixels)
    }

    /// Smooth colours with sharp-edged blocks, so a tile put in the wrong place or turned the wrong way
    /// is far off, while HEVC keeps each pixel close.
    static let picture: PreviewImage = {
        let width = 700, height = 450
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let block = (x / 37 + y / 29) % 3
                pixels += [UInt8(x * 255 / width), UInt8(y * 255 / height), block == 0 ? 30 : block == 1 ? 140 : 240]
            }
        }
        return PreviewImage(width: width, height: height, pixels: pixels)
    }()

    /// The largest difference of a channel between two pictures of one size, and the mean one.
    static func difference(_ a: PreviewImage, _ b: PreviewImage) -> (largest: Int, mean: Double) {
        var largest = 0, total = 0
        for (x, y) in zip(a.pixels, b.pixels) {
            let gap = abs(Int(x) - Int(y))
            largest = max(largest, gap)
            total += gap
        }
        return (largest, Double(total) / Double(a.pixels.count))
    }

    /// Each region of a grid turned and mirrored every way a file can say is the same part of the picture
    /// libheif decodes whole. Tiles are turned to RGB apart, so chroma at their seams may differ a little.
    @Test(arguments: [(0, nil), (1, nil), (2, nil), (3, nil), (0, 0), (0, 1), (1, 0), (3, 1)] as [(Int, Int?)])
    func everyRegionOfAGridIsThatOfThePictureDecodedWhole(angle: Int, mirror: Int?) throws {
        let bytes = Self.grid(Self.picture, tile: 256, angle: angle, mirror: mirror)
        let whole = try Self.whole(bytes)
        #expect(whole.size == (angle % 2 == 1 ? PixelSize(width: 450, height: 700) : PixelSize(width: 700, height: 450)))
        let picture = try OriginalDecoder().prepare(bytes)
        guard case .regions(let reader) = picture.pixels, let tiles = reader as? HEIFTiles else { Issue.record("decoded whole"); return }
        #expect(picture.size == whole.size && picture.decodesViewFirst)
        #expect(!OriginalDecoder.standsInFirst(bytes))
        let (w, h) = (whole.width, whole.height)
        for (x, y, width, height) in [(0, 0, w, h), (5, 3, 17, 11), (w - 9, h - 4, 9, 4), (250, 250, 12, 12), (1, 20, 300, 1), (0, 255, w, 3)] {
            let region = try picture.region(x: x, y: y, width: width, height: height, decoder: PreviewDecoder())
            #expect(region.originX == x && region.originY == y)
            let gap = Self.difference(region.image, whole.cropped(x: x, y: y, width: width, height: height))
            #expect(gap.largest <= 24 && gap.mean < 1, "angle \(angle), mirror \(String(describing: mirror)), \(x),\(y) \(width)×\(height): \(gap)")
        }
        // The colours stand where the picture has them, turned as the file says (the decode whole is checked too).
        let upright = Self.picture
        let turned = try picture.region(x: 0, y: 0, width: w, height: h, decoder: PreviewDecoder()).image
        #expect(Self.difference(turned, Self.oriented(upright, angle: angle, mirror: mirror)).mean < 6)
        #expect(tiles.tilesDecoded == 6, "2 × 3 tiles of 256, each decoded once")
    }

    /// `image` turned `angle` quarter turns anticlockwise, then mirrored, as `irot` and `imir` say.
    static func oriented(_ image: PreviewImage, angle: Int, mirror: Int?) -> PreviewImage {
        var result = image
        for _ in 0..<angle {
            // A quarter turn anticlockwise: EXIF orientation 8 stands such a picture upright.
            result = result.oriented(exif: 8)
        }
        switch mirror {
        case 0?: return result.oriented(exif: 4)
        case 1?: return result.oriented(exif: 2)
        default: return result
        }
    }

    /// A view costs only the tiles under it, and a view over tiles decoded before costs none.
    @Test func aViewDecodesOnlyTheTilesUnderItOnce() throws {
        let picture = try OriginalDecoder().prepare(Self.grid(Self.picture, tile: 128))
        guard case .regions(let reader) = picture.pixels, let tiles = reader as? HEIFTiles else { Issue.record("decoded whole"); return }
        #expect(tiles.grid.columns == 6 && tiles.grid.rows == 4)
        _ = try picture.region(x: 130, y: 10, width: 100, height: 100, decoder: PreviewDecoder())
        #expect(tiles.tilesDecoded == 1)
        _ = try picture.region(x: 100, y: 100, width: 200, height: 100, decoder: PreviewDecoder())
        #expect(tiles.tilesDecoded == 6, "the 3 × 2 under it, the one decoded before not again")
        _ = try picture.region(x: 140, y: 20, width: 50, height: 50, decoder: PreviewDecoder())
        #expect(tiles.tilesDecoded == 6)
    }

    /// A grid over the limit is refused before a tile is decoded; one picture (no grid) is decoded whole.
    @Test func aGridOverTheLimitIsRefusedAndOnePictureIsDecodedWhole() throws {
        let bytes = Self.grid(Self.picture, tile: 256)
        #expect(throws: PreviewError.tooLarge(width: 700, height: 450)) { try OriginalDecoder(pixelLimit: 300_000).prepare(bytes) }
        let single = OriginalDecoderTests.heif(OriginalDecoderTests.quadrants, format: heif_compression_HEVC)
        #expect(OriginalDecoder.standsInFirst(single))
        guard case .decoded = try OriginalDecoder().prepare(single).pixels else { Issue.record("one picture read by tiles"); return }
    }

    /// A grid damaged anywhere: an error when its tiles are read (the loupe's one line) or at once, and
    /// `verify` (what `get` checks) finds it, never a crash or a hang.
    @Test func aDamagedGridGivesAnErrorNotACrash() throws {
        let bytes = Self.grid(Self.picture, tile: 128, quality: 60)
        #expect(try OriginalDecoder().verify(bytes) == .heic)
        var generator = SystemRandomNumberGenerator()
        var damaged: [[UInt8]] = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 9)).map { Array(bytes.prefix($0)) }
        for _ in 0..<40 {
            var copy = bytes
            for _ in 0..<8 { copy[Int.random(in: 16..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            damaged.append(copy)
        }
        var refused = 0, verifiedAsRefused = 0
        for file in damaged {
            do {
                let picture = try OriginalDecoder().prepare(file)
                _ = try picture.region(x: 0, y: 0, width: picture.size.width, height: picture.size.height, decoder: PreviewDecoder())
            } catch {
                refused += 1
                #expect(!error.description.isEmpty)
            }
            do { _ = try OriginalDecoder().verify(file) } catch { verifiedAsRefused += 1 }
        }
        // Cut short, the last tiles' data is missing: every cut file but the whole one is refused both ways.
        #expect(refused >= 9 && verifiedAsRefused >= 9, "\(refused), \(verifiedAsRefused)")
    }
}
