import CPNG
import CWebP
import Foundation
import PhotoImaging
import PhotoPickTestSupport
import Testing

/// An 8-bit RGB PNG is inflated whole and unfiltered only as far down as a view asks: each region
/// equals what libpng decodes, under every row filter, and other PNGs go to libpng whole.
struct PNGRowsTests {
    /// `image` through libpng with `filters` (PNG_FILTER_NONE 0x08 … PAETH 0x80, or several) and Adam7 when `interlaced`.
    static func png(_ image: PreviewImage, filters: Int32, interlaced: Bool = false, level: Int32 = 6) throws -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = image.pixels.withUnsafeBufferPointer {
            cpng_encode_rgb_with($0.baseAddress, Int32(image.width), Int32(image.height), level, filters, interlaced ? 1 : 0, &output, &length)
        }
        try #require(status == 0)
        defer { free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// libpng's own reading of `bytes`, whole: what every region is checked against.
    static func libpng(_ bytes: [UInt8]) throws -> PreviewImage {
        var output: UnsafeMutablePointer<UInt8>?
        var width: Int32 = 0, height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = bytes.withUnsafeBufferPointer { cpng_decode_rgb($0.baseAddress, $0.count, 1 << 30, &output, &width, &height, &message, message.count) }
        try #require(status == 0)
        defer { free(output) }
        return PreviewImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: output, count: Int(width * height * 3))))
    }

    /// Noise over gradients: every filter has carries and wraps to get right.
    static let picture = OriginalDecoderTests.noise(width: 301, height: 203)

    /// None, Sub, Up, Average, Paeth, and libpng choosing per row among all five.
    @Test(arguments: [0x08, 0x10, 0x20, 0x40, 0x80, 0xF8] as [Int32])
    func everyRegionUnderEveryFilterIsLibpngs(filters: Int32) throws {
        let bytes = try Self.png(Self.picture, filters: filters)
        let whole = try Self.libpng(bytes)
        #expect(whole == Self.picture, "PNG is lossless")
        let picture = try OriginalDecoder().prepare(bytes)
        guard case .regions(let reader) = picture.pixels, let rows = reader as? PNGRows else { Issue.record("decoded whole"); return }
        #expect(picture.decodesViewFirst && !OriginalDecoder.standsInFirst(bytes))
        #expect(rows.rowsUnfiltered == 0, "nothing unfiltered before a view asks")
        let (w, h) = (whole.width, whole.height)
        for (x, y, width, height) in [(5, 3, 17, 11), (0, 0, 1, 1), (w - 9, 40, 9, 4), (100, 0, 201, 120), (0, 150, w, 53), (0, 0, w, h)] {
            let region = try picture.region(x: x, y: y, width: width, height: height, decoder: PreviewDecoder())
            #expect(region.originX == x && region.originY == y)
            #expect(region.image == whole.cropped(x: x, y: y, width: width, height: height), "filters \(filters), \(x),\(y) \(width)×\(height)")
        }
        #expect(rows.rowsUnfiltered == h)
    }

    /// A WebP is read a region at a time with libwebp's cropping, which starts at an even column and row:
    /// every region, at odd corners too, is exactly that of the picture decoded whole, lossless or lossy
    /// (whose chroma is upsampled from the rows beside a crop's edge).
    @Test(arguments: [true, false])
    func aWebPRegionAtAnyCornerIsThatOfThePictureDecodedWhole(lossless: Bool) throws {
        let bytes = lossless ? OriginalDecoderTests.webp(Self.picture) : Self.lossyWebP(Self.picture)
        let picture = try OriginalDecoder().prepare(bytes)
        guard case .regions(let reader) = picture.pixels, reader is WebPRegions else { Issue.record("decoded whole"); return }
        #expect(!OriginalDecoder.standsInFirst(bytes) && picture.decodesViewFirst)
        // libwebp's own decode of the whole picture, without cropping.
        var width: Int32 = 0, height: Int32 = 0
        let decoded = try #require(bytes.withUnsafeBufferPointer { WebPDecodeRGB($0.baseAddress, $0.count, &width, &height) })
        defer { WebPFree(decoded) }
        let whole = PreviewImage(width: Int(width), height: Int(height), pixels: Array(UnsafeBufferPointer(start: decoded, count: Int(width * height * 3))))
        let (w, h) = (Self.picture.width, Self.picture.height)
        for (x, y, width, height) in [(5, 3, 17, 11), (0, 0, 1, 1), (w - 9, 41, 9, 4), (101, 0, 200, 121), (33, 77, 100, 51), (0, 0, w, h)] {
            let region = try picture.region(x: x, y: y, width: width, height: height, decoder: PreviewDecoder())
            #expect(region.originX == x && region.originY == y)
            #expect(region.image == whole.cropped(x: x, y: y, width: width, height: height), "\(x),\(y) \(width)×\(height)")
        }
        if lossless { #expect(whole == Self.picture) }
    }

    /// `image` through libwebp at quality 80, as the demo library's WebP originals are.
    static func lossyWebP(_ image: PreviewImage) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = image.pixels.withUnsafeBufferPointer {
            WebPEncodeRGB($0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 3), 80, &output)
        }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// A rendition stands in for an 8-bit RGB PNG past 12 MP, whose stream takes 100 ms and more to
    /// inflate, and not for one under; the header alone decides.
    @Test func aLargePNGHasARenditionStandInFirst() throws {
        var bytes = try Self.png(Self.picture, filters: 0x08)
        #expect(!OriginalDecoder.standsInFirst(bytes))
        // IHDR's width made 60,000: 60,000 × 203 is 12.2 MP (the CRC is not read for this).
        bytes[16...19] = [0, 0, 0xEA, 0x60]
        #expect(OriginalDecoder.standsInFirst(bytes))
    }

    /// A view unfilters the rows down to its bottom, and no further.
    @Test func aViewUnfiltersOnlyTheRowsDownToItsBottom() throws {
        let picture = try OriginalDecoder().prepare(try Self.png(Self.picture, filters: 0xF8))
        guard case .regions(let reader) = picture.pixels, let rows = reader as? PNGRows else { Issue.record("decoded whole"); return }
        _ = try picture.region(x: 100, y: 40, width: 50, height: 20, decoder: PreviewDecoder())
        #expect(rows.rowsUnfiltered == 60)
        _ = try picture.region(x: 0, y: 0, width: 10, height: 10, decoder: PreviewDecoder())
        #expect(rows.rowsUnfiltered == 60, "rows above are done already")
    }

    /// Interlaced (and 16-bit, grey, palette, alpha, another gamma) PNGs are libpng's, decoded whole.
    @Test func anInterlacedPNGIsLibpngsWhole() throws {
        let bytes = try Self.png(Self.picture, filters: 0xF8, interlaced: true)
        #expect(OriginalDecoder.standsInFirst(bytes))
        guard case .decoded(let image) = try OriginalDecoder().prepare(bytes).pixels else { Issue.record("read by rows"); return }
        #expect(image == Self.picture)
    }

    /// A row whose filter byte is none of the five: the region reaching it fails with one line, and
    /// `verify` (libpng, every row) finds it too; a damaged CRC is refused when opened.
    @Test func anUnknownFilterOrABadCRCIsAnError() throws {
        var bytes = try Self.png(Self.picture, filters: 0x08, level: 0)
        // Level 0 stores the rows as they are: row 100's filter byte is found by its pixels after it.
        let stride = 1 + 301 * 3
        let row = Array(Self.picture.pixels[(100 * 301 * 3)..<(100 * 301 * 3 + 64)])
        let at = try #require((0..<(bytes.count - 64)).first { Array(bytes[$0..<($0 + 64)]) == row }) - 1
        #expect(bytes[at] == 0 && stride > 0)
        bytes[at] = 9
        // The IDAT's CRC and zlib's Adler-32 are made right again, so only the filter is wrong.
        let damaged = try Self.refreshed(bytes)
        let picture = try OriginalDecoder().prepare(damaged)
        _ = try picture.region(x: 0, y: 0, width: 301, height: 100, decoder: PreviewDecoder())
        #expect(throws: PreviewError.damaged(format: "PNG", reason: "row 100 has an unknown filter")) {
            try picture.region(x: 0, y: 90, width: 301, height: 20, decoder: PreviewDecoder())
        }
        #expect(throws: PreviewError.self) { try OriginalDecoder().verify(damaged) }
        var crc = try Self.png(Self.picture, filters: 0x08)
        // The IDAT's CRC is the 4 bytes before IEND's 12: only it is wrong.
        crc[crc.count - 13] ^= 0x55
        #expect(throws: PreviewError.self) { try OriginalDecoder().prepare(crc) }
    }

    /// zlib's Adler-32 and PNG's CRC-32, as their specifications define them.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// `bytes` with each IDAT's CRC and the zlib stream's Adler-32 computed again (stored blocks only).
    static func refreshed(_ bytes: [UInt8]) throws -> [UInt8] {
        var out = bytes
        var position = 8
        var stream: [UInt8] = []
        var idats: [Int] = []
        while position + 12 <= out.count {
            let size = Int(out[position]) << 24 | Int(out[position + 1]) << 16 | Int(out[position + 2]) << 8 | Int(out[position + 3])
            if Array(out[(position + 4)..<(position + 8)]) == Array("IDAT".utf8) {
                idats.append(position)
                stream += out[(position + 8)..<(position + 8 + size)]
            }
            position += 12 + size
        }
        // Stored deflate blocks: a header byte and LEN, NLEN, then the bytes; the rows are what they hold.
        var raw: [UInt8] = []
        var at = 2
        while at < stream.count - 4 {
            let final = stream[at] & 1, length = Int(stream[at + 1]) | Int(stream[at + 2]) << 8
            raw += stream[(at + 5)..<(at + 5 + length)]
            at += 5 + length
            if final == 1 { break }
        }
        let adler = Self.adler32(raw)
        let last = try #require(idats.last)
        let lastSize = Int(out[last]) << 24 | Int(out[last + 1]) << 16 | Int(out[last + 2]) << 8 | Int(out[last + 3])
        let end = last + 8 + lastSize
        out[(end - 4)..<end] = [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        for chunk in idats {
            let size = Int(out[chunk]) << 24 | Int(out[chunk + 1]) << 16 | Int(out[chunk + 2]) << 8 | Int(out[chunk + 3])
            let crc = Self.crc32(out[(chunk + 4)..<(chunk + 8 + size)])
            out[(chunk + 8 + size)..<(chunk + 12 + size)] = [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        return out
    }
}
