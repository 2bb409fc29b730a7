import CHeif
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

    /// An uncompressed RGB TIFF, little-endian, one strip.
    static func tiff(_ image: PreviewImage, orientation: Int = 1) -> [UInt8] {
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00]
        func u16(_ value: Int) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func u32(_ value: Int) { u16(value & 0xFFFF); u16(value >> 16) }
        let entries: [(tag: Int, type: Int, count: Int, value: Int)] = [
            (256, 4, 1, image.width), (257, 4, 1, image.height), (258, 3, 3, 8), (259, 3, 1, 1), (262, 3, 1, 2),
            (273, 4, 1, 0), (274, 3, 1, orientation), (277, 3, 1, 3), (278, 4, 1, image.height), (279, 4, 1, image.pixels.count), (284, 3, 1, 1),
        ]
        let ifd = 8, bitsAt = ifd + 2 + entries.count * 12 + 4, dataAt = bitsAt + 6
        u32(ifd)
        u16(entries.count)
        for entry in entries {
            u16(entry.tag); u16(entry.type); u32(entry.count)
            switch entry.tag {
            case 258: u32(bitsAt)
            case 273: u32(dataAt)
            default: entry.type == 3 ? { u16(entry.value); u16(0) }() : u32(entry.value)
            }
        }
        u32(0)
        u16(8); u16(8); u16(8)
        return bytes + image.pixels
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
}
