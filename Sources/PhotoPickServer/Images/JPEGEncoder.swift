import CJPEG

/// Encodes scenes through the CJPEG target, whose libjpeg errors come back as codes.
enum JPEGEncoder {
    struct Failure: Error, CustomStringConvertible {
        let status: cjpeg_status
        let message: String
        var description: String { "JPEG encoding failed (\(status.rawValue)): \(message)" }
    }

    /// Encodes at `quality`, padded with comment segments to exactly `paddedLength` bytes when given.
    static func encode(_ scene: SceneDesign, width: Int, height: Int, quality: Int, paddedLength: Int? = nil) throws -> [UInt8] {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = scene.withScene { scene in
            cjpeg_encode_landscape(scene, Int32(width), Int32(height), Int32(quality), paddedLength ?? 0,
                               &output, &length, &message, message.count)
        }
        guard status == CJPEG_OK, let output else {
            throw Failure(status: status, message: String(decoding: message.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        defer { cjpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// Encodes exactly `length` bytes, lowering the quality until the image fits under the padding.
    static func encode(_ scene: SceneDesign, width: Int, height: Int, exactLength length: Int) throws -> [UInt8] {
        var quality = 92
        while true {
            do {
                return try encode(scene, width: width, height: height, quality: quality, paddedLength: length)
            } catch let failure as Failure where failure.status == CJPEG_ERR_GAP_TOO_SMALL && quality > 1 {
                quality -= 1
            } catch let failure as Failure where failure.status == CJPEG_ERR_TOO_LARGE && quality > 10 {
                quality = max(10, quality - 12)
            }
        }
    }
}
