import CAVIF
import CHeif
import CTIFF
import CWebP
import Foundation
import PhotoImaging
import PhotoPickTestSupport
import Testing

/// Every format an original comes in, made by its own library's encoder (a TIFF written by hand),
/// read back by `OriginalDecoder`; and damaged files of each kind, which must give an error and never
/// a crash.
struct OriginalDecoderTests {
    /// 64 × 48: red, green / blue, white quadrants.
    static let quadrants = PreviewImage(width: 64, height: 48, pixels: TestPicture.quadrantPixels(width: 64, height: 48))

    static func colour(_ image: PreviewImage, _ x: Int, _ y: Int) -> String {
        TestPicture.colourName(image[x, y], high: 190, low: 70)
    }

    static func webp(_ image: PreviewImage) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = image.pixels.withUnsafeBufferPointer {
            WebPEncodeLosslessRGB($0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 3), &output)
        }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    static func heif(_ image: PreviewImage, format: heif_compression_format) -> [UInt8] {
        let context = heif_context_alloc()!
        defer { heif_context_free(context) }
        var encoder: OpaquePointer?
        precondition(heif_context_get_encoder_for_format(context, format, &encoder).code == heif_error_Ok)
        defer { heif_encoder_release(encoder) }
        heif_encoder_set_lossy_quality(encoder, 95)
        var picture: OpaquePointer?
        precondition(heif_image_create(Int32(image.width), Int32(image.height), heif_colorspace_RGB, heif_chroma_interleaved_RGB, &picture).code == heif_error_Ok)
        defer { heif_image_release(picture) }
        heif_image_add_plane(picture, heif_channel_interleaved, Int32(image.width), Int32(image.height), 8)
        var stride: Int32 = 0
        let plane = heif_image_get_plane(picture, heif_channel_interleaved, &stride)!
        for row in 0..<image.height {
            image.pixels.withUnsafeBufferPointer {
                plane.advanced(by: row * Int(stride)).update(from: $0.baseAddress!.advanced(by: row * image.width * 3), count: image.width * 3)
            }
        }
        precondition(heif_context_encode_image(context, picture, encoder, nil, nil).code == heif_error_Ok)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("photopick-\(UUID().uuidString).heif").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        precondition(heif_context_write_to_file(context, path).code == heif_error_Ok)
        return Array(FileManager.default.contents(atPath: path)!)
    }

    /// An uncompressed RGB TIFF, little-endian: one strip, or `tile` × `tile` tiles; with `alpha`, a fourth
    /// sample of each pixel (at half opacity), which the picture shown leaves out.
    static func tiff(_ image: PreviewImage, orientation: Int = 1, alpha: Bool = false, tile: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        func u16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16) }
        let samples = alpha ? 4 : 3
        func pixel(_ x: Int, _ y: Int) -> [UInt8] {
            guard x < image.width, y < image.height else { return [UInt8](repeating: 0, count: samples) }
            let colour = image[x, y]
            return [colour.red, colour.green, colour.blue] + (alpha ? [128] : [])
        }
        // The pixels as stored: rows whole, or tile after tile (edge tiles padded).
        var data: [UInt8] = [], pieces: [(offset: Int, length: Int)] = []
        if let tile {
            for top in stride(from: 0, to: image.height, by: tile) {
                for left in stride(from: 0, to: image.width, by: tile) {
                    let start = data.count
                    for y in top..<(top + tile) { for x in left..<(left + tile) { data += pixel(x, y) } }
                    pieces.append((start, data.count - start))
                }
            }
        } else {
            for y in 0..<image.height { for x in 0..<image.width { data += pixel(x, y) } }
            pieces = [(0, data.count)]
        }
        var entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 4, 1, image.width), (257, 4, 1, image.height), (258, 3, samples, 8), (259, 3, 1, 1), (262, 3, 1, 2),
            (274, 3, 1, orientation), (277, 3, 1, samples), (284, 3, 1, 1),
        ]
        entries += tile.map { [(322, 3, 1, $0), (323, 3, 1, $0), (324, 4, pieces.count, 0), (325, 4, pieces.count, 0)] }
            ?? [(273, 4, 1, 0), (278, 4, 1, image.height), (279, 4, 1, data.count)]
        if alpha { entries.append((338, 3, 1, 2)) }
        entries.sort { $0.tag < $1.tag }
        let ifd = 8, bitsAt = ifd + 2 + entries.count * 12 + 4, offsetsAt = bitsAt + 2 * samples
        let countsAt = offsetsAt + 4 * pieces.count, dataAt = countsAt + 4 * pieces.count
        u32(ifd)
        u16(entries.count)
        for entry in entries {
            u16(entry.tag); u16(entry.type); u32(entry.count)
            switch entry.tag {
            case 258: u32(bitsAt)
            case 273: u32(dataAt)
            case 324: pieces.count == 1 ? u32(dataAt) : u32(offsetsAt)
            case 325: pieces.count == 1 ? u32(pieces[0].length) : u32(countsAt)
            default: entry.type == 3 ? { u16(entry.value); u16(0) }() : u32(entry.value)
            }
        }
        u32(0)
        for _ in 0..<samples { u16(8) }
        for piece in pieces { u32(dataAt + piece.offset) }
        for piece in pieces { u32(piece.length) }
        return bytes + data
    }

    static let encoded: [(OriginalFormat, [UInt8])] = [
        (.jpeg, quadrants.jpeg(quality: 95)!), (.png, quadrants.png()!), (.webp, webp(quadrants)), (.tiff, tiff(quadrants)),
        (.heic, heif(quadrants, format: heif_compression_HEVC)), (.avif, heif(quadrants, format: heif_compression_AV1)),
    ]

    @Test(arguments: encoded.map(\.0))
    func eachFormatIsKnownByItsBytesAndReadUpright(format: OriginalFormat) throws {
        let bytes = try #require(Self.encoded.first { $0.0 == format }?.1)
        #expect(OriginalFormat.sniff(bytes) == format)
        let picture = try OriginalDecoder().prepare(bytes)
        #expect(picture.format == format && picture.size == PixelSize(width: 64, height: 48) && picture.note == nil)
        let whole = try picture.region(x: 0, y: 0, width: 64, height: 48, decoder: PreviewDecoder()).image
        #expect([(16, 12), (48, 12), (16, 36), (48, 36)].map { Self.colour(whole, $0.0, $0.1) } == ["red", "green", "blue", "white"], "\(format)")
        // A band: the white quarter alone, from where it starts.
        let band = try picture.region(x: 36, y: 28, width: 20, height: 16, decoder: PreviewDecoder())
        #expect(band.originX <= 36 && band.originY <= 28)
        #expect(Self.colour(band.image, 40 - band.originX, 32 - band.originY) == "white")
        let small = try picture.fitting(PixelSize(width: 32, height: 32), decoder: PreviewDecoder())
        #expect(small.size == PixelSize(width: 32, height: 24))
    }

    /// A TIFF stored on its side (orientation 6: turn a quarter clockwise) stands upright: the stored
    /// top left, red, is the top right, and the picture is taller than wide.
    @Test func aTIFFOnItsSideStandsUpright() throws {
        let picture = try OriginalDecoder().prepare(Self.tiff(Self.quadrants, orientation: 6))
        #expect(picture.size == PixelSize(width: 48, height: 64))
        let image = try picture.region(x: 0, y: 0, width: 48, height: 64, decoder: PreviewDecoder()).image
        #expect([(36, 16), (12, 16), (36, 48), (12, 48)].map { Self.colour(image, $0.0, $0.1) } == ["red", "blue", "green", "white"])
    }

    /// The TIFF layouts read straight into RGB (strips of three or four samples, tiles whose edge ones
    /// hang over the picture) give the same picture.
    @Test(arguments: [(false, nil), (true, nil), (false, 16), (true, 16), (false, 32)] as [(Bool, Int?)])
    func aTIFFInTilesOrWithAlphaReadsTheSame(alpha: Bool, tile: Int?) throws {
        let picture = try OriginalDecoder().prepare(Self.tiff(Self.quadrants, alpha: alpha, tile: tile))
        #expect(picture.size == PixelSize(width: 64, height: 48))
        let image = try picture.region(x: 0, y: 0, width: 64, height: 48, decoder: PreviewDecoder()).image
        #expect(image.pixels == Self.quadrants.pixels, "alpha \(alpha), tile \(tile.map(String.init) ?? "none")")
    }

    /// A TIFF through libtiff's own writer: strips of `rows` rows, or `tile` × `tile` tiles.
    static func libtiff(_ image: PreviewImage, orientation: Int, rows: Int = 7, tile: Int = 0, compression: Int32 = COMPRESSION_NONE) throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appending(path: "photopick-test-\(UUID().uuidString).tif").path
        defer { unlink(path) }
        try #require(ctiff_write_rgb_as(path, image.pixels, UInt32(image.width), UInt32(image.height), UInt32(rows), UInt32(tile), Int32(orientation), compression) == 1)
        return Array(try #require(FileManager.default.contents(atPath: path)))
    }

    /// An 8-bit RGB TIFF is read a region at a time, decoding only the strips or tiles under it: every
    /// region of every orientation, in strips (one, or several a region starts inside) or tiles, of
    /// three samples or four, compressed or not, is that region of the picture decoded whole and stood
    /// upright.
    @Test(arguments: [(7, 0, COMPRESSION_NONE), (1, 0, COMPRESSION_ADOBE_DEFLATE), (37, 0, COMPRESSION_NONE), (0, 16, COMPRESSION_NONE),
                      (0, 32, COMPRESSION_LZW)] as [(Int, Int, Int32)])
    func aTIFFIsReadARegionAtATimeInEveryOrientation(rows: Int, tile: Int, compression: Int32) throws {
        let stored = Self.noise(width: 53, height: 37)
        for orientation in 1...8 {
            try Self.expectRegions(of: Self.libtiff(stored, orientation: orientation, rows: max(rows, 1), tile: tile, compression: compression),
                                   equal: stored, orientation: orientation, "strips of \(rows), tile \(tile)")
        }
    }

    /// Four samples a pixel (RGB and alpha), in one strip or in tiles, read a region at a time too.
    @Test(arguments: [nil, 16] as [Int?])
    func aTIFFWithAlphaIsReadARegionAtATime(tile: Int?) throws {
        let stored = Self.noise(width: 53, height: 37)
        for orientation in 1...8 {
            try Self.expectRegions(of: Self.tiff(stored, orientation: orientation, alpha: true, tile: tile), equal: stored,
                                   orientation: orientation, "alpha, tile \(tile.map(String.init) ?? "none")")
        }
    }

    /// A compressed TIFF whose strip is larger than a region read would want to decode at every pan is
    /// decoded whole once instead, the same picture. (libtiff itself reads an uncompressed one strip as
    /// many small ones.)
    @Test func aTIFFInOneLargeCompressedStripIsDecodedWholeOnce() throws {
        let side = 1200
        let stored = PreviewImage(width: side, height: side, pixels: (0..<(side * side * 3)).map { UInt8(truncatingIfNeeded: $0 * 7 + $0 / 3600) })
        #expect(side * side * 3 > OriginalDecoder.largestPieceReadByRegions)
        let picture = try OriginalDecoder().prepare(Self.libtiff(stored, orientation: 1, rows: side, compression: COMPRESSION_ADOBE_DEFLATE))
        guard case .decoded(let image) = picture.pixels else { Issue.record("read by regions"); return }
        #expect(image == stored)
    }

    static func noise(width: Int, height: Int) -> PreviewImage {
        var random = SystemRandomNumberGenerator()
        return PreviewImage(width: width, height: height, pixels: (0..<(width * height * 3)).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    static func expectRegions(of bytes: [UInt8], equal stored: PreviewImage, orientation: Int, _ layout: String) throws {
        let picture = try OriginalDecoder().prepare(bytes)
        guard case .tiff = picture.pixels else { Issue.record("\(layout), orientation \(orientation): decoded whole"); return }
        let upright = stored.oriented(exif: orientation)
        #expect(picture.size == upright.size)
        let (w, h) = (upright.width, upright.height)
        for (x, y, width, height) in [(0, 0, w, h), (5, 3, 17, 11), (w - 9, h - 4, 9, 4), (1, 20, 30, 1), (0, 5, w, 20)] {
            let region = try picture.region(x: x, y: y, width: width, height: height, decoder: PreviewDecoder())
            #expect(region.originX == x && region.originY == y)
            #expect(region.image == upright.cropped(x: x, y: y, width: width, height: height),
                    "\(layout), orientation \(orientation), \(x),\(y) \(width)×\(height)")
        }
        #expect(try picture.fitting(PixelSize(width: 400, height: 400), decoder: PreviewDecoder()) == upright)
    }

    @Test func bytesOfNoKnownFormatAreSaidToBeSo() {
        #expect(throws: PreviewError.unsupported) { try OriginalDecoder().prepare(Array("GIF89a and more".utf8)) }
        #expect(OriginalFormat.sniff([]) == nil)
    }

    /// A picture declaring more pixels than the limit is refused before it is decoded.
    @Test(arguments: encoded.map(\.0))
    func aPictureOverTheLimitIsRefused(format: OriginalFormat) throws {
        let bytes = try #require(Self.encoded.first { $0.0 == format }?.1)
        #expect(throws: PreviewError.self) { try OriginalDecoder(pixelLimit: 1000).prepare(bytes).region(x: 0, y: 0, width: 64, height: 48, decoder: PreviewDecoder(pixelLimit: 1000)) }
    }

    /// Truncated at every length a fifth apart, and bytes after the magic number changed at random: an
    /// error or a picture, never a crash or a hang.
    @Test(arguments: encoded.map(\.0))
    func damagedFilesGiveAnErrorNotACrash(format: OriginalFormat) throws {
        let bytes = try #require(Self.encoded.first { $0.0 == format }?.1)
        var generator = SystemRandomNumberGenerator()
        var damaged: [[UInt8]] = stride(from: 0, to: bytes.count, by: max(1, bytes.count / 5)).map { Array(bytes.prefix($0)) }
        for _ in 0..<40 {
            var copy = bytes
            for _ in 0..<8 { copy[Int.random(in: 16..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            damaged.append(copy)
        }
        damaged.append(Array(bytes.prefix(16)) + (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        var failures = 0
        for file in damaged {
            do {
                let picture = try OriginalDecoder().prepare(file)
                _ = try picture.region(x: 0, y: 0, width: picture.size.width, height: picture.size.height, decoder: PreviewDecoder())
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(failures >= 1, "a file cut at its first bytes must fail")
    }

    /// An AVIF written by libavif (aom, fastest), stored turned `angle` quarter turns anticlockwise
    /// (`irot`, applied first) and mirrored (`imir`: 0 top to bottom, 1 left to right).
    static func avif(_ picture: PreviewImage, angle: Int, mirror: Int?, subsampled: Bool = false) -> [UInt8] {
        let image = avifImageCreate(UInt32(picture.width), UInt32(picture.height), 8, subsampled ? AVIF_PIXEL_FORMAT_YUV420 : AVIF_PIXEL_FORMAT_YUV444)!
        defer { avifImageDestroy(image) }
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGB
        rgb.rowBytes = UInt32(picture.width * 3)
        var pixels = picture.pixels
        pixels.withUnsafeMutableBufferPointer { rgb.pixels = $0.baseAddress; precondition(avifImageRGBToYUV(image, &rgb) == AVIF_RESULT_OK) }
        if angle != 0 {
            image.pointee.transformFlags |= UInt32(AVIF_TRANSFORM_IROT.rawValue)
            image.pointee.irot.angle = UInt8(angle)
        }
        if let mirror {
            image.pointee.transformFlags |= UInt32(AVIF_TRANSFORM_IMIR.rawValue)
            image.pointee.imir.mode = UInt8(mirror)
        }
        let encoder = avifEncoderCreate()!
        defer { avifEncoderDestroy(encoder) }
        encoder.pointee.speed = 10
        encoder.pointee.minQuantizer = 0
        encoder.pointee.maxQuantizer = 10
        var output = avifRWData()
        precondition(avifEncoderWrite(encoder, image, &output) == AVIF_RESULT_OK)
        defer { avifRWDataFree(&output) }
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }

    /// The quadrants' colours where a viewer shows them once `irot` then `imir` are applied, worked out
    /// here point by point (not by the decoder's table): for each shown quadrant centre, the stored point.
    static func shownColours(angle: Int, mirror: Int?) -> [String] {
        var width = 64, height = 48
        // Where each stored quadrant centre lands.
        var points = [(16, 12), (48, 12), (16, 36), (48, 36)].map { (x: $0.0, y: $0.1) }
        for _ in 0..<angle {
            // A quarter turn anticlockwise: (x, y) -> (y, width - 1 - x).
            points = points.map { (x: $0.y, y: width - 1 - $0.x) }
            swap(&width, &height)
        }
        if mirror == 0 { points = points.map { (x: $0.x, y: height - 1 - $0.y) } }
        if mirror == 1 { points = points.map { (x: width - 1 - $0.x, y: $0.y) } }
        let stored = ["red", "green", "blue", "white"]
        // Read the shown picture in reading order of its quadrants.
        let order = points.indices.sorted { (points[$0].y, points[$0].x) < (points[$1].y, points[$1].x) }
        return order.map { stored[$0] }
    }

    /// An AVIF's own rotation and mirror stand it up, in each of the eight ways they combine (libavif
    /// leaves them to its caller; libheif applied them itself).
    @Test(arguments: [(0, nil), (1, nil), (2, nil), (3, nil), (0, 0), (0, 1), (1, 0), (3, 1)] as [(Int, Int?)])
    func anAVIFTurnedAndMirroredStandsAsStored(angle: Int, mirror: Int?) throws {
        let picture = try OriginalDecoder().prepare(Self.avif(Self.quadrants, angle: angle, mirror: mirror))
        let turned = angle % 2 == 1
        #expect(picture.size == (turned ? PixelSize(width: 48, height: 64) : PixelSize(width: 64, height: 48)))
        let image = try picture.region(x: 0, y: 0, width: picture.size.width, height: picture.size.height, decoder: PreviewDecoder()).image
        let (w, h) = (picture.size.width, picture.size.height)
        let shown = [(w / 4, h / 4), (3 * w / 4, h / 4), (w / 4, 3 * h / 4), (3 * w / 4, 3 * h / 4)].map { Self.colour(image, $0.0, $0.1) }
        #expect(shown == Self.shownColours(angle: angle, mirror: mirror), "irot \(angle), imir \(mirror.map(String.init) ?? "none")")
    }

    /// An AVIF is decoded once and each view turned into RGB alone: every region, at odd corners (4:2:0's
    /// chroma sits on even ones) and in each turn, is exactly that part of the whole picture.
    @Test(arguments: [(0, nil), (1, nil), (3, 1), (2, 0)] as [(Int, Int?)])
    func anAVIFRegionIsThatPartOfTheWholePicture(angle: Int, mirror: Int?) throws {
        let picture = try OriginalDecoder().prepare(Self.avif(Self.noise(width: 97, height: 61), angle: angle, mirror: mirror, subsampled: true))
        guard case .regions(let reader) = picture.pixels, reader is AVIFPicture else { Issue.record("decoded whole"); return }
        let (w, h) = (picture.size.width, picture.size.height)
        let whole = try picture.region(x: 0, y: 0, width: w, height: h, decoder: PreviewDecoder()).image
        for (x, y, width, height) in [(5, 3, 17, 11), (w - 9, h - 4, 9, 4), (1, 20, 30, 1), (0, 7, w, 13), (3, 0, 1, h)] {
            let region = try picture.region(x: x, y: y, width: width, height: height, decoder: PreviewDecoder())
            #expect(region.image == whole.cropped(x: x, y: y, width: width, height: height), "irot \(angle), \(x),\(y) \(width)×\(height)")
        }
    }
}
