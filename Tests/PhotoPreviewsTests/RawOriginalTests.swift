import PhotoImaging
@testable import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// The demo server's DNGs, read by LibRaw through `OriginalDecoder`: the embedded preview when it is
/// full size, a half-size demosaic of the CFA when the preview is small, upright by the file's
/// orientation either way, in the picture's colours.
struct RawOriginalTests {
    /// 64 × 48: red, green / blue, white quadrants, short of the extremes as a sensor's samples are.
    static let quadrants = TestPicture.quadrantPixels(width: 64, height: 48, high: 230, low: 20)

    static func colour(_ image: PreviewImage, _ x: Int, _ y: Int) -> String {
        TestPicture.colourName(image[x, y], high: 150, low: 100)
    }

    static func whole(_ picture: OriginalPicture) throws -> PreviewImage {
        try picture.region(x: 0, y: 0, width: picture.size.width, height: picture.size.height, decoder: PreviewDecoder()).image
    }

    @Test func aFullSizePreviewIsShownAsTheOriginal() throws {
        let dng = try DNGWriter.dng(pixels: Self.quadrants, width: 64, height: 48, make: "PhotoPick", model: "Demo DNG")
        #expect(OriginalFormat.sniff(dng) == .tiff)
        let picture = try OriginalDecoder().prepare(dng)
        #expect(picture.format == .raw && picture.size == PixelSize(width: 64, height: 48))
        #expect(picture.note == "embedded preview 64×48")
        let image = try Self.whole(picture)
        #expect([(16, 12), (48, 12), (16, 36), (48, 36)].map { Self.colour(image, $0.0, $0.1) } == ["red", "green", "blue", "white"])
    }

    @Test func aSmallPreviewGivesWayToAHalfSizeDemosaicOfTheSensor() throws {
        let dng = try DNGWriter.dng(pixels: Self.quadrants, width: 64, height: 48, previewScale: 0.25, make: "PhotoPick", model: "Demo DNG")
        let picture = try OriginalDecoder().prepare(dng)
        #expect(picture.format == .raw && picture.note == "50% demosaic")
        #expect(picture.size == PixelSize(width: 32, height: 24))
        let image = try Self.whole(picture)
        #expect([(8, 6), (24, 6), (8, 18), (24, 18)].map { Self.colour(image, $0.0, $0.1) } == ["red", "green", "blue", "white"])
    }

    /// Orientation 6 (turned a quarter clockwise to be upright): the stored top left, red, is the top right.
    @Test(arguments: [1.0, 0.25])
    func theFilesOrientationStandsItUpright(previewScale: Double) throws {
        let dng = try DNGWriter.dng(pixels: Self.quadrants, width: 64, height: 48, orientation: 6, previewScale: previewScale, make: "PhotoPick", model: "Demo DNG")
        let picture = try OriginalDecoder().prepare(dng)
        let image = try Self.whole(picture)
        #expect(image.width < image.height)
        let (w, h) = (image.width, image.height)
        #expect(Self.colour(image, w * 3 / 4, h / 4) == "red")
        #expect(Self.colour(image, w / 4, h / 4) == "blue")
        #expect(Self.colour(image, w * 3 / 4, h * 3 / 4) == "green")
    }

    /// Cut short and changed at random: an error naming RAW or TIFF, or a picture, never a crash.
    @Test func aDamagedDNGIsAnErrorNotACrash() throws {
        let dng = try DNGWriter.dng(pixels: Self.quadrants, width: 64, height: 48, previewScale: 0.25, make: "PhotoPick", model: "Demo DNG")
        var generator = SystemRandomNumberGenerator()
        var failures = 0
        var files = stride(from: 8, to: dng.count, by: dng.count / 7).map { Array(dng.prefix($0)) }
        for _ in 0..<30 {
            var copy = dng
            for _ in 0..<6 { copy[Int.random(in: 8..<copy.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator) }
            files.append(copy)
        }
        for file in files {
            do { _ = try Self.whole(try OriginalDecoder().prepare(file)) } catch { failures += 1 }
        }
        #expect(failures >= 1)
    }
}
