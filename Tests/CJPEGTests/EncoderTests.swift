import CJPEG
import Testing

/// Drives the C encoder directly, as the server does.
struct EncoderTests {
    private static let shapes = [
        cjpeg_shape(kind: CJPEG_SHAPE_DISC, x: 0.3, y: 0.4, size: 0.2, size2: 0, alpha: 0.9, color: cjpeg_rgb(r: 250, g: 200, b: 20)),
        cjpeg_shape(kind: CJPEG_SHAPE_RING, x: 0.7, y: 0.6, size: 0.15, size2: 0.03, alpha: 1, color: cjpeg_rgb(r: 20, g: 40, b: 200)),
    ]

    /// The scene most tests draw; `scene` changes it (its shapes are filled in).
    private static var standardScene: cjpeg_scene {
        cjpeg_scene(
            from: cjpeg_rgb(r: 10, g: 30, b: 60), to: cjpeg_rgb(r: 240, g: 120, b: 90), angle: 0.7, vignette: 0.3,
            grain: 1, noise_seed: 42, shapes: nil, shape_count: Int32(shapes.count)
        )
    }

    private func encode(
        width: Int32 = 160, height: Int32 = 120, quality: Int32 = 85, padTo: Int = 0, scene template: cjpeg_scene = standardScene
    ) -> (cjpeg_status, [UInt8]) {
        Self.shapes.withUnsafeBufferPointer { shapes in
            var scene = template
            scene.shapes = shapes.baseAddress
            var output: UnsafeMutablePointer<UInt8>?
            var length = 0
            var message = [CChar](repeating: 0, count: 200)
            let status = cjpeg_encode_scene(&scene, width, height, quality, padTo, &output, &length, &message, message.count)
            defer { cjpeg_free(output) }
            return (status, output.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? [])
        }
    }

    private func inspect(_ bytes: [UInt8]) -> (status: cjpeg_status, width: Int32, height: Int32) {
        var width: Int32 = 0
        var height: Int32 = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = cjpeg_inspect(bytes, bytes.count, &width, &height, &message, message.count)
        return (status, width, height)
    }

    @Test func encodesADecodableJPEGOfTheRequestedSize() {
        let (status, bytes) = encode(width: 160, height: 120)
        #expect(status == CJPEG_OK)
        #expect(bytes.prefix(2) == [0xFF, 0xD8])
        #expect(bytes.suffix(2) == [0xFF, 0xD9])
        let decoded = inspect(bytes)
        #expect(decoded.status == CJPEG_OK)
        #expect(decoded.width == 160 && decoded.height == 120)
    }

    @Test(arguments: [0, 4, 5, 1000, 65537, 65538, 65541, 200_000])
    func padsToExactlyTheRequestedLength(extra: Int) {
        let plain = encode().1
        let (status, padded) = encode(padTo: plain.count + extra)
        #expect(status == CJPEG_OK)
        #expect(padded.count == plain.count + extra)
        #expect(inspect(padded).status == CJPEG_OK)
    }

    @Test(arguments: [1, 2, 3])
    func refusesGapsNoSegmentCanFill(extra: Int) {
        let plain = encode().1
        #expect(encode(padTo: plain.count + extra).0 == CJPEG_ERR_GAP_TOO_SMALL)
    }

    @Test func refusesALengthShorterThanTheImage() {
        #expect(encode(padTo: 100).0 == CJPEG_ERR_TOO_LARGE)
    }

    @Test func rejectsInvalidArguments() {
        #expect(encode(width: 0).0 == CJPEG_ERR_ARGUMENT)
        #expect(encode(quality: 101).0 == CJPEG_ERR_ARGUMENT)
    }

    @Test func differentScenesGiveDifferentImages() {
        let first = encode().1
        let (status, second) = encode(scene: cjpeg_scene(
            from: cjpeg_rgb(r: 200, g: 0, b: 0), to: cjpeg_rgb(r: 0, g: 0, b: 200), angle: 2, vignette: 0, grain: 0, noise_seed: 1,
            shapes: nil, shape_count: 1
        ))
        #expect(status == CJPEG_OK)
        #expect(first != second)
    }

    @Test func inspectReportsCorruptAndTruncatedDataAsErrors() {
        let bytes = encode().1
        #expect(inspect(Array(bytes.prefix(bytes.count / 2))).status == CJPEG_ERR_LIBJPEG)
        #expect(inspect(Array("this is not a JPEG at all".utf8)).status == CJPEG_ERR_LIBJPEG)
        var corrupt = bytes
        for index in stride(from: 200, to: corrupt.count - 2, by: 7) { corrupt[index] ^= 0x5A }
        #expect(inspect(corrupt).status != CJPEG_OK)
    }
}
