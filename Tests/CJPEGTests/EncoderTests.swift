import CJPEG
import CSceneRender
import Foundation
import Testing

/// Drives the C encoder directly, as the server does.
struct EncoderTests {
    /// The landscape most tests draw.
    private static let standardScene = cjpeg_landscape(seed: 42, defocus: 0, motion: 0, gain: 1, grain: 1)

    private func encode(
        width: Int32 = 160, height: Int32 = 120, quality: Int32 = 85, padTo: Int = 0, scene: cjpeg_landscape = standardScene
    ) -> (cjpeg_status, [UInt8]) {
        var scene = scene
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = cjpeg_encode_landscape(&scene, width, height, quality, padTo, &output, &length, &message, message.count)
        defer { cjpeg_free(output) }
        return (status, output.map { Array(UnsafeBufferPointer(start: $0, count: length)) } ?? [])
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
        let (status, second) = encode(scene: cjpeg_landscape(seed: 43, defocus: 0, motion: 0, gain: 1, grain: 1))
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

/// Runs CPU-heavy work on a thread of its own, off the cooperative pool, so other suites' async tests
/// that keep time are not starved while it renders.
func offPool<Result: Sendable>(_ work: @escaping @Sendable () -> Result) async -> Result {
    await withCheckedContinuation { continuation in
        Thread { continuation.resume(returning: work()) }.start()
    }
}

/// The demo landscapes: the same picture at every size, sharp or not as asked. Serialized and off the
/// cooperative pool: each case renders for a while.
@Suite(.serialized) struct LandscapeTests {
    /// Packed RGB of a landscape, rendered row by row as the encoder does.
    static func render(_ landscape: cjpeg_landscape, width: Int, height: Int) -> [UInt8] {
        var landscape = landscape
        guard let renderer = cjpeg_landscape_start(&landscape, Int32(width), Int32(height)) else { return [] }
        defer { cjpeg_landscape_finish(renderer) }
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in 0..<height { cjpeg_landscape_row(renderer, Int32(row), buffer.baseAddress! + row * width * 3) }
        }
        return pixels
    }

    /// Grey levels averaged over `factor` x `factor` blocks.
    static func shrink(_ pixels: [UInt8], width: Int, height: Int, by factor: Int) -> [Double] {
        let w = width / factor, h = height / factor
        var out = [Double](repeating: 0, count: w * h)
        for y in 0..<(h * factor) {
            for x in 0..<(w * factor) {
                let at = (y * width + x) * 3
                out[(y / factor) * w + x / factor] += (Double(pixels[at]) + Double(pixels[at + 1]) + Double(pixels[at + 2])) / 3
            }
        }
        return out.map { $0 / Double(factor * factor) }
    }

    /// Mean squared second difference, a measure of fine detail: across and down, or only across.
    static func detail(_ grey: [Double], width: Int, height: Int, onlyAcross: Bool = false) -> Double {
        var sum = 0.0
        for y in 1..<(height - 1) {
            for x in 1..<(width - 1) {
                let at = y * width + x
                let across = 2 * grey[at] - grey[at - 1] - grey[at + 1]
                let down = onlyAcross ? 0 : 2 * grey[at] - grey[at - width] - grey[at + width]
                sum += (across + down) * (across + down)
            }
        }
        return sum / Double((width - 2) * (height - 2))
    }

    static func sharp(_ seed: UInt64) -> cjpeg_landscape { cjpeg_landscape(seed: seed, defocus: 0, motion: 0, gain: 1, grain: 0) }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func aLargeRenderShrunkIsTheSmallRender(seed: UInt64) async {
        // Rendered off the pool; the expectations are checked here, on the test's own task.
        let (same, other) = await offPool { () -> (Double, Double) in
            let small = Self.shrink(Self.render(Self.sharp(seed), width: 240, height: 160), width: 240, height: 160, by: 1)
            let large = Self.shrink(Self.render(Self.sharp(seed), width: 960, height: 640), width: 960, height: 640, by: 4)
            let another = Self.shrink(Self.render(Self.sharp(seed + 100), width: 240, height: 160), width: 240, height: 160, by: 1)
            func rmse(_ a: [Double], _ b: [Double]) -> Double { (zip(a, b).map { ($0 - $1) * ($0 - $1) }.reduce(0, +) / Double(a.count)).squareRoot() }
            return (rmse(small, large), rmse(small, another))
        }
        // Thresholds and fine octaves the small render leaves out move a few levels; another scene moves tens.
        #expect(same < 10, "RMSE \(same) levels between 240 px and 960 px shrunk")
        #expect(other > 2.5 * same, "another scene is further off: \(other)")
    }

    /// Fine detail of a sharp, a defocused and a shaken render of one scene, and their mean levels.
    private struct Focus: Sendable {
        var sharp, soft, shaken, sharpAcross, shakenAcross: Double
        var meanShift: Double
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func defocusAndShakeTakeAwayFineDetailButNotThePicture(seed: UInt64) async {
        let focus = await offPool { () -> Focus in
            let width = 480, height = 320
            let grey = { (landscape: cjpeg_landscape) in Self.shrink(Self.render(landscape, width: width, height: height), width: width, height: height, by: 1) }
            let sharp = grey(Self.sharp(seed))
            let soft = grey(cjpeg_landscape(seed: seed, defocus: 0.003, motion: 0, gain: 1, grain: 0))
            let shaken = grey(cjpeg_landscape(seed: seed, defocus: 0, motion: 0.008, gain: 1, grain: 0))
            let mean = { (grey: [Double]) in grey.reduce(0, +) / Double(grey.count) }
            return Focus(
                sharp: Self.detail(sharp, width: width, height: height), soft: Self.detail(soft, width: width, height: height),
                shaken: Self.detail(shaken, width: width, height: height),
                sharpAcross: Self.detail(sharp, width: width, height: height, onlyAcross: true),
                shakenAcross: Self.detail(shaken, width: width, height: height, onlyAcross: true),
                meanShift: max(abs(mean(soft) - mean(sharp)), abs(mean(shaken) - mean(sharp)))
            )
        }
        #expect(focus.soft < focus.sharp / 3)
        // A sideways shake smears only across: what runs across the frame (the horizon) stays sharp.
        #expect(focus.shakenAcross < focus.sharpAcross / 3)
        #expect(focus.shaken < focus.sharp)
        #expect(focus.meanShift < 3, "the same picture, only softer")
    }

    @Test func theSameSeedIsTheSamePictureAndAnotherIsNot() {
        let first = Self.render(Self.sharp(9), width: 120, height: 80)
        #expect(first == Self.render(Self.sharp(9), width: 120, height: 80))
        #expect(first != Self.render(Self.sharp(10), width: 120, height: 80))
        let portrait = Self.render(Self.sharp(9), width: 80, height: 120)
        #expect(portrait.count == 80 * 120 * 3 && Set(portrait).count > 50, "portrait frames render a picture too")
        var landscape = Self.sharp(9)
        #expect(cjpeg_landscape_start(&landscape, 0, 10) == nil)
    }
}
