import CJPEG
import CSceneRender

/// Renders a scene's packed RGB pixels at a size: `JPEGEncoder.render`, or a cache in front of it.
typealias SceneRender = @Sendable (SceneDesign, Int, Int) throws -> [UInt8]

/// Encodes scenes through the CJPEG target, whose libjpeg errors come back as codes.
enum JPEGEncoder {
    struct Failure: Error, CustomStringConvertible {
        let status: cjpeg_status
        let message: String
        var description: String { "JPEG encoding failed (\(status.rawValue)): \(message)" }
    }

    /// Encodes at `quality`, rendering row by row without holding the picture.
    static func encode(_ scene: SceneDesign, width: Int, height: Int, quality: Int) throws -> [UInt8] {
        try finish { output, length, message in
            scene.withScene { scene in
                cjpeg_encode_landscape(scene, Int32(width), Int32(height), Int32(quality), 0, &output, &length, &message, message.count)
            }
        }
    }

    /// Encodes rendered pixels at `quality`: the same bytes as rendering and encoding row by row. With
    /// `padding`, exactly that many bytes, or the failure that says the quality must change.
    static func encode(pixels: [UInt8], width: Int, height: Int, quality: Int, padding: Int = 0) throws -> [UInt8] {
        try finish { output, written, message in
            cjpeg_encode_rgb_padded(pixels, Int32(width), Int32(height), Int32(quality), padding, &output, &written, &message, message.count)
        }
    }

    /// Encodes exactly `length` bytes, lowering the quality until the image fits under the padding. The
    /// picture is rendered once and encoded again from its pixels at each quality tried: a 12 MP
    /// landscape takes seconds to render, an encode a fraction of that.
    static func encode(
        _ scene: SceneDesign, width: Int, height: Int, exactLength length: Int, render: SceneRender = JPEGEncoder.render
    ) throws -> [UInt8] {
        let pixels = try render(scene, width, height)
        var quality = 92
        while true {
            do {
                return try encode(pixels: pixels, width: width, height: height, quality: quality, padding: length)
            } catch let failure as Failure where failure.status == CJPEG_ERR_GAP_TOO_SMALL && quality > 1 {
                quality -= 1
            } catch let failure as Failure where failure.status == CJPEG_ERR_TOO_LARGE && quality > 10 {
                quality = max(10, quality - 12)
            }
        }
    }

    /// The scene's packed RGB pixels.
    static func render(_ scene: SceneDesign, width: Int, height: Int) throws -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let rendered = scene.withScene { scene -> Bool in
            guard let renderer = cjpeg_landscape_start(scene, Int32(width), Int32(height)) else { return false }
            defer { cjpeg_landscape_finish(renderer) }
            pixels.withUnsafeMutableBufferPointer { buffer in
                for row in 0..<height { cjpeg_landscape_row(renderer, Int32(row), buffer.baseAddress! + row * width * 3) }
            }
            return true
        }
        guard rendered else { throw Failure(status: CJPEG_ERR_MEMORY, message: "cannot render \(width)×\(height)") }
        return pixels
    }

    /// Runs an encode that fills `output`, `length` and `message`, and returns its bytes or its failure.
    private static func finish(
        _ encode: (inout UnsafeMutablePointer<UInt8>?, inout Int, inout [CChar]) -> cjpeg_status
    ) throws -> [UInt8] {
        var message = [CChar](repeating: 0, count: 256)
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        let status = encode(&output, &length, &message)
        guard status == CJPEG_OK, let output else {
            throw Failure(status: status, message: String(decoding: message.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
        }
        defer { cjpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}
