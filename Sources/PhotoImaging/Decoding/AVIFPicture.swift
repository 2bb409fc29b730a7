import CAVIF
import Foundation

/// An AVIF decoded once by dav1d (an AV1 frame has no parts to decode alone) and kept as its YUV planes,
/// half the bytes of RGB at 4:2:0; each view turned into RGB alone (CAVIF's `cavif_picture`), then stood
/// upright by its `irot`/`imir`, which libavif leaves to its caller.
public final class AVIFPicture: RegionReader {
    private let reader: Reader
    /// The clean aperture as stored, and the EXIF orientation that stands it up.
    private let stored: PixelSize, orientation: Int
    /// The upright picture's size.
    public let size: PixelSize

    /// The decoder holding the planes, freed with it. Sendable because nothing writes to it after
    /// `cavif_open`: `cavif_region_rgb` reads the decoded planes only.
    private final class Reader: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<cavif_picture>
        init(_ pointer: UnsafeMutablePointer<cavif_picture>) { self.pointer = pointer }
        deinit { cavif_free(pointer) }
    }

    /// The AVIF in `bytes`, decoded, its size checked against `pixelLimit` before any pixel is.
    static func open(_ bytes: [UInt8], pixelLimit: Int) throws(PreviewError) -> AVIFPicture {
        var pointer: UnsafeMutablePointer<cavif_picture>?
        var width: Int32 = 0, height: Int32 = 0, angle: Int32 = 0, mirror: Int32 = -1
        var message = [CChar](repeating: 0, count: 200)
        let threads = Int32(min(ProcessInfo.processInfo.activeProcessorCount, 8))
        let status = bytes.withUnsafeBufferPointer {
            cavif_open($0.baseAddress, $0.count, UInt64(pixelLimit), threads, &pointer, &width, &height, &angle, &mirror, &message, message.count)
        }
        switch status {
        case 0:
            guard let pointer else { throw .outOfMemory }
            let transforms: [HEIFTransform] = [.rotation(quarterTurnsAnticlockwise: Int(angle))] + (mirror < 0 ? [] : [.mirror(topToBottom: mirror == 0)])
            return AVIFPicture(Reader(pointer), stored: PixelSize(width: Int(width), height: Int(height)), orientation: HEIFTransform.exifOrientation(transforms))
        default: throw OriginalDecoder.failure(status, width: width, height: height, format: "AVIF", message: message)
        }
    }

    private init(_ reader: Reader, stored: PixelSize, orientation: Int) {
        self.reader = reader
        self.stored = stored
        self.orientation = orientation
        size = stored.upright(exif: orientation)
    }

    /// The stored rectangle under the upright one turned into RGB, then stood upright.
    public func region(x0: Int, y0: Int, x1: Int, y1: Int) throws(PreviewError) -> PreviewImage {
        let rectangle = OriginalPicture.stored(x: x0, y: y0, width: x1 - x0, height: y1 - y0, in: stored, orientation: orientation)
        var message = [CChar](repeating: 0, count: 200)
        var status: Int32 = 0
        let pixels = [UInt8](unsafeUninitializedCapacity: rectangle.width * rectangle.height * 3) { buffer, count in
            status = cavif_region_rgb(reader.pointer, Int32(rectangle.x), Int32(rectangle.y), Int32(rectangle.width), Int32(rectangle.height),
                                      buffer.baseAddress, &message, message.count)
            count = status == 0 ? buffer.count : 0
        }
        switch status {
        case 0: return PreviewImage(width: rectangle.width, height: rectangle.height, pixels: pixels).oriented(exif: orientation)
        default: throw OriginalDecoder.failure(status, width: 0, height: 0, format: "AVIF", message: message)
        }
    }
}
