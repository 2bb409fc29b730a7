import CJPEG
import CSceneRender
import Foundation

/// Writes a real DNG from RGB pixels, for the demo library's RAW originals: the picture mosaicked
/// into an RGGB Bayer pattern of 16-bit linear samples (a CFA, which LibRaw demosaics), with a
/// full-size embedded JPEG preview in IFD 0 and the raw image in a SubIFD, as cameras and Adobe's
/// converter write them. Hand-written: no DNG writer is packaged for Debian (the DNG SDK is not), and
/// the format is a TIFF with a dozen tags.
enum DNGWriter {
    /// A DNG of `width` × `height` RGB `pixels` (sRGB), stored at `orientation` (EXIF 1...8), with an
    /// embedded preview of `previewScale` of the size (1 for full size, as most cameras give).
    static func dng(
        pixels: [UInt8], width: Int, height: Int, orientation: Int = 1, previewScale: Double = 1, previewQuality: Int = 90, make: String, model: String
    ) throws -> [UInt8] {
        let previewWidth = max(1, Int(Double(width) * previewScale)), previewHeight = max(1, Int(Double(height) * previewScale))
        let previewPixels = previewScale == 1 ? pixels : scaled(pixels, width, height, to: previewWidth, previewHeight)
        var message = [CChar](repeating: 0, count: 200)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = cjpeg_encode_rgb(previewPixels, Int32(previewWidth), Int32(previewHeight), Int32(previewQuality), 0, 0, &output, &length, &message, message.count)
        guard status == CJPEG_OK, let output else { throw JPEGEncoder.Failure(status: status, message: "the DNG's preview") }
        let preview = Array(UnsafeBufferPointer(start: output, count: length))
        cjpeg_free(output)

        // The CFA: each site keeps its own colour of the pixel, taken back to linear light.
        var cfa = [UInt8](repeating: 0, count: width * height * 2)
        cjpeg_mosaic_rggb16(pixels, Int32(width), Int32(height), &cfa)

        var file = TIFFFile()
        let camera = make + " " + model
        // XYZ (D65) to the "camera", whose primaries are sRGB's: the inverse of sRGB's matrix.
        let colorMatrix = [3.2406, -1.5372, -0.4986, -0.9689, 1.8758, 0.0415, 0.0557, -0.2040, 1.0570]
        let rawIFD: [TIFFFile.Entry] = [
            .long(254, [0]), .long(256, [width]), .long(257, [height]), .short(258, [16]), .short(259, [1]), .short(262, [32803]),
            .data(273, cfa), .short(277, [1]), .long(278, [height]), .long(279, [cfa.count]), .short(284, [1]),
            .short(33421, [2, 2]), .byte(33422, [0, 1, 1, 2]), .short(50714, [0]), .long(50717, [65535]),
        ]
        let mainIFD: [TIFFFile.Entry] = [
            .long(254, [1]), .long(256, [previewWidth]), .long(257, [previewHeight]), .short(258, [8, 8, 8]), .short(259, [7]),
            .short(262, [6]), .ascii(271, make), .ascii(272, model), .data(273, preview), .short(274, [orientation]),
            .short(277, [3]), .long(278, [previewHeight]), .long(279, [preview.count]), .short(284, [1]), .subIFD(330, rawIFD),
            .byte(50706, [1, 4, 0, 0]), .byte(50707, [1, 1, 0, 0]), .ascii(50708, camera),
            .srational(50721, colorMatrix), .rational(50728, [1, 1, 1]), .short(50778, [21]),
        ]
        return file.write(mainIFD)
    }

    /// Nearest-neighbour scaling, for a smaller embedded preview.
    private static func scaled(_ pixels: [UInt8], _ width: Int, _ height: Int, to newWidth: Int, _ newHeight: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        for y in 0..<newHeight {
            let sy = y * height / newHeight
            for x in 0..<newWidth {
                let sx = x * width / newWidth
                for c in 0..<3 { out[(y * newWidth + x) * 3 + c] = pixels[(sy * width + sx) * 3 + c] }
            }
        }
        return out
    }
}

/// A little-endian TIFF with one IFD chain and SubIFDs: entries sorted by tag, values over four bytes
/// and image data placed after the IFD that names them.
struct TIFFFile {
    indirect enum Entry {
        case byte(Int, [UInt8])
        case ascii(Int, String)
        case short(Int, [Int])
        case long(Int, [Int])
        case rational(Int, [Double])
        case srational(Int, [Double])
        /// Bytes placed in the file, the tag holding their offset (a strip).
        case data(Int, [UInt8])
        /// An IFD placed in the file, the tag holding its offset.
        case subIFD(Int, [Entry])

        var tag: Int {
            switch self {
            case .byte(let tag, _), .ascii(let tag, _), .short(let tag, _), .long(let tag, _), .rational(let tag, _),
                 .srational(let tag, _), .data(let tag, _), .subIFD(let tag, _): tag
            }
        }
    }

    private var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0, 0, 0, 0]

    /// The file with `entries` as its first IFD.
    mutating func write(_ entries: [Entry]) -> [UInt8] {
        let offset = place(entries)
        patch(at: 4, offset)
        return bytes
    }

    /// Writes an IFD and everything it points to; returns the IFD's offset.
    private mutating func place(_ entries: [Entry]) -> Int {
        let sorted = entries.sorted { $0.tag < $1.tag }
        align()
        let at = bytes.count
        bytes += [UInt8](repeating: 0, count: 2 + sorted.count * 12 + 4)
        patch16(at: at, sorted.count)
        for (index, entry) in sorted.enumerated() {
            let slot = at + 2 + index * 12
            let (type, count, value) = encode(entry)
            patch16(at: slot, entry.tag)
            patch16(at: slot + 2, type)
            patch(at: slot + 4, count)
            if case .data(_, let data) = entry {
                align()
                patch(at: slot + 8, bytes.count)
                bytes += data
            } else if case .subIFD(_, let inner) = entry {
                patch(at: slot + 8, place(inner))
            } else if value.count <= 4 {
                for (offset, byte) in value.enumerated() { bytes[slot + 8 + offset] = byte }
            } else {
                align()
                patch(at: slot + 8, bytes.count)
                bytes += value
            }
        }
        return at
    }

    private func encode(_ entry: Entry) -> (type: Int, count: Int, value: [UInt8]) {
        func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
        switch entry {
        case .byte(_, let values): return (1, values.count, values)
        case .ascii(_, let text): let value = Array(text.utf8) + [0]; return (2, value.count, value)
        case .short(_, let values): return (3, values.count, values.flatMap(le16))
        case .long(_, let values): return (4, values.count, values.flatMap(le32))
        case .rational(_, let values): return (5, values.count, values.flatMap { le32(Int(($0 * 10_000).rounded())) + le32(10_000) })
        case .srational(_, let values):
            return (10, values.count, values.flatMap { le32(Int(Int32(($0 * 10_000).rounded())) & 0xFFFF_FFFF) + le32(10_000) })
        case .data(_, let data): return (entry.tag == 273 ? 4 : 7, entry.tag == 273 ? 1 : data.count, [])
        case .subIFD: return (4, 1, [])
        }
    }

    private mutating func align() {
        if bytes.count % 2 == 1 { bytes.append(0) }
    }

    private mutating func patch(at offset: Int, _ value: Int) {
        for index in 0..<4 { bytes[offset + index] = UInt8(value >> (8 * index) & 0xFF) }
    }

    private mutating func patch16(at offset: Int, _ value: Int) {
        bytes[offset] = UInt8(value & 0xFF)
        bytes[offset + 1] = UInt8(value >> 8 & 0xFF)
    }
}
