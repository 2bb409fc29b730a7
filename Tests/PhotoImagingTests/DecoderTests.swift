import PhotoImaging
import PhotoPickTestSupport
import Testing

struct DecoderTests {
    private let decoder = PreviewDecoder()

    /// Names the colour of a pixel of the quadrant picture, allowing for JPEG's loss.
    private func colour(_ image: PreviewImage, _ x: Int, _ y: Int) -> String {
        TestPicture.colourName(image[x, y], high: 200, low: 60)
    }

    @Test func theSmallestDCTScaleThatStillCoversTheTargetIsChosen() {
        let scale = PreviewDecoder.scaleNumerator
        #expect(scale(PixelSize(width: 6000, height: 4000), PixelSize(width: 100, height: 67)) == 1)
        #expect(scale(PixelSize(width: 1024, height: 683), PixelSize(width: 600, height: 400)) == 5)
        #expect(scale(PixelSize(width: 800, height: 600), PixelSize(width: 100, height: 75)) == 1)
        #expect(scale(PixelSize(width: 800, height: 600), PixelSize(width: 101, height: 75)) == 2)
        #expect(scale(PixelSize(width: 800, height: 600), PixelSize(width: 800, height: 600)) == 8)
        #expect(scale(PixelSize(width: 100, height: 100), PixelSize(width: 400, height: 400)) == 8)
        // libjpeg rounds a scaled size up: 9 pixels at 1/8 are 2, enough for a target of 2.
        #expect(scale(PixelSize(width: 9, height: 9), PixelSize(width: 2, height: 2)) == 1)
    }

    @Test func decodesAtTheChosenScaleThenAveragesToTheExactFittedSize() throws {
        let bytes = TestJPEG.encode(width: 800, height: 600) { x, y in (UInt8(x % 256), UInt8(y % 256), 90) }
        let (small, smallInfo) = try decoder.decode(bytes, fitting: PixelSize(width: 100, height: 100))
        #expect(small.size == PixelSize(width: 100, height: 75))
        #expect(smallInfo.scaleNumerator == 1)
        let (medium, mediumInfo) = try decoder.decode(bytes, fitting: PixelSize(width: 300, height: 300))
        #expect(medium.size == PixelSize(width: 300, height: 225))
        #expect(mediumInfo.scaleNumerator == 3)
        #expect(mediumInfo.sourceSize == PixelSize(width: 800, height: 600))
        // Never enlarged: a box larger than the picture gives the picture's own size.
        let (whole, wholeInfo) = try decoder.decode(bytes, fitting: PixelSize(width: 2000, height: 2000))
        #expect(whole.size == PixelSize(width: 800, height: 600))
        #expect(wholeInfo.scaleNumerator == 8)
    }

    @Test func areaAveragingKeepsAFlatColourAndMixesFineDetail() throws {
        let flat = TestJPEG.encode(width: 256, height: 256) { _, _ in (200, 100, 50) }
        let (image, _) = try decoder.decode(flat, fitting: PixelSize(width: 10, height: 10))
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (r, g, b) = image[x, y]
                #expect(abs(Int(r) - 200) <= 3 && abs(Int(g) - 100) <= 3 && abs(Int(b) - 50) <= 3)
            }
        }
        // Stripes 16 pixels wide, black and white: each output pixel covers 64 columns, half of each.
        let stripes = TestJPEG.encode(width: 512, height: 64) { x, _ in x / 16 % 2 == 0 ? (0, 0, 0) : (255, 255, 255) }
        let (mixed, _) = try decoder.decode(stripes, fitting: PixelSize(width: 8, height: 8))
        #expect(mixed.size == PixelSize(width: 8, height: 1))
        for x in 0..<mixed.width { #expect(abs(Int(mixed[x, 0].red) - 128) <= 12) }
    }

    /// EXIF orientation 1–8: where each stored quadrant ends up, per the TIFF/EXIF definition.
    @Test(arguments: [
        (1, 64, 32, ["red", "green", "blue", "white"]),
        (2, 64, 32, ["green", "red", "white", "blue"]),
        (3, 64, 32, ["white", "blue", "green", "red"]),
        (4, 64, 32, ["blue", "white", "red", "green"]),
        (5, 32, 64, ["red", "blue", "green", "white"]),
        (6, 32, 64, ["blue", "red", "white", "green"]),
        (7, 32, 64, ["white", "green", "blue", "red"]),
        (8, 32, 64, ["green", "white", "red", "blue"]),
    ])
    func appliesTheEXIFOrientation(orientation: Int, width: Int, height: Int, corners: [String]) throws {
        let (image, info) = try decoder.decode(TestJPEG.quadrants(orientation: orientation), fitting: PixelSize(width: 64, height: 64))
        #expect(info.orientation == orientation)
        #expect(image.size == PixelSize(width: width, height: height))
        let (left, right, top, bottom) = (width / 4, width * 3 / 4, height / 4, height * 3 / 4)
        #expect([colour(image, left, top), colour(image, right, top), colour(image, left, bottom), colour(image, right, bottom)] == corners)
    }

    @Test func orientationAlsoAppliesWhenScaling() throws {
        let (image, _) = try decoder.decode(TestJPEG.quadrants(orientation: 6), fitting: PixelSize(width: 8, height: 8))
        #expect(image.size == PixelSize(width: 4, height: 8))
        #expect(colour(image, 0, 0) == "blue" && colour(image, 3, 0) == "red")
    }

    @Test func progressiveFilesDecodeLikeBaselineOnes() throws {
        let (baseline, baselineInfo) = try decoder.decode(TestJPEG.quadrants(), fitting: PixelSize(width: 32, height: 32))
        let (progressive, progressiveInfo) = try decoder.decode(TestJPEG.quadrants(progressive: true), fitting: PixelSize(width: 32, height: 32))
        #expect(!baselineInfo.isProgressive && progressiveInfo.isProgressive)
        #expect(progressive.size == baseline.size)
        let differences = zip(progressive.pixels, baseline.pixels).map { abs(Int($0) - Int($1)) }
        #expect(differences.max() ?? 0 <= 8)
    }

    @Test func truncatedDataIsAnErrorNotACrash() throws {
        let bytes = TestJPEG.encode(width: 320, height: 240) { x, y in (UInt8(x % 256), UInt8(y % 256), UInt8((x + y) % 256)) }
        for length in [bytes.count / 2, bytes.count - 2, 200, 3] {
            #expect(throws: PreviewError.self) { try decoder.decode(Array(bytes.prefix(length)), fitting: PixelSize(width: 64, height: 64)) }
        }
        do {
            _ = try decoder.decode(Array(bytes.prefix(bytes.count / 2)), fitting: PixelSize(width: 64, height: 64))
        } catch {
            guard case .corrupt = error else { Issue.record("expected .corrupt, got \(error)"); return }
        }
    }

    @Test func corruptDataIsAnError() {
        var bytes = TestJPEG.encode(width: 320, height: 240) { x, y in (UInt8(x % 256), UInt8(y % 256), 40) }
        // An end-of-image marker in the middle of the entropy-coded data, then garbage.
        let middle = bytes.count / 2
        bytes.replaceSubrange(middle..<(middle + 64), with: [0xFF, 0xD9] + (0..<62).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) })
        #expect(throws: PreviewError.self) { try decoder.decode(bytes, fitting: PixelSize(width: 64, height: 64)) }
        // A damaged header: the frame's component count made impossible.
        var header = TestJPEG.quadrants()
        if let sof = header.indices.first(where: { header[$0] == 0xFF && header[$0 + 1] == 0xC0 }) { header[sof + 9] = 0 }
        #expect(throws: PreviewError.self) { try decoder.decode(header, fitting: PixelSize(width: 64, height: 64)) }
    }

    @Test func strayBytesBetweenMarkersAreNotDamage() throws {
        var bytes = TestJPEG.quadrants()
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.insert(contentsOf: [0x00, 0x11, 0x22], at: sof)
        let (image, _) = try decoder.decode(bytes, fitting: PixelSize(width: 64, height: 64))
        #expect(colour(image, 16, 8) == "red")
    }

    @Test func aProgressiveFileNeedingTooMuchMemoryIsRefused() throws {
        // 11,000 × 11,000 is under the pixel cap, but a progressive decode keeps every coefficient:
        // about 360 MB, past the decoder's 256 MB.
        var bytes = TestJPEG.quadrants(progressive: true)
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC2 })
        bytes.replaceSubrange((sof + 5)...(sof + 8), with: [0x2A, 0xF8, 0x2A, 0xF8])
        #expect(throws: PreviewError.tooLarge(width: 11_000, height: 11_000)) {
            try decoder.decode(bytes, fitting: PixelSize(width: 100, height: 100))
        }
    }

    @Test func aBodyThatIsNotAJPEGSaysSo() {
        let inputs: [[UInt8]] = [[], [0xFF], Array("GIF89a....".utf8), [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], Array("<html>nope</html>".utf8)]
        for bytes in inputs {
            #expect(throws: PreviewError.notJPEG) { try decoder.decode(bytes, fitting: PixelSize(width: 10, height: 10)) }
        }
    }

    @Test func aFileClaimingTooManyPixelsIsRefusedBeforeDecoding() throws {
        // JPEG's frame header holds 16-bit sizes: the largest claim it can make is 65,535 × 65,535.
        var bytes = TestJPEG.quadrants()
        let sof = try #require(bytes.indices.first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes.replaceSubrange((sof + 5)...(sof + 8), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(throws: PreviewError.tooLarge(width: 65535, height: 65535)) {
            try decoder.decode(bytes, fitting: PixelSize(width: 100, height: 100))
        }
        // Within libjpeg's 65,500 per side, the decoder's own cap refuses it before allocating.
        bytes.replaceSubrange((sof + 5)...(sof + 8), with: [0xFF, 0xDC, 0xFF, 0xDC])
        #expect(throws: PreviewError.tooLarge(width: 65500, height: 65500)) {
            try decoder.decode(bytes, fitting: PixelSize(width: 100, height: 100))
        }
        // The cap is a setting: 64×32 is 2,048 pixels.
        #expect(throws: PreviewError.tooLarge(width: 64, height: 32)) {
            try PreviewDecoder(pixelLimit: 2_047).decode(TestJPEG.quadrants(), fitting: PixelSize(width: 10, height: 10))
        }
        #expect(try PreviewDecoder(pixelLimit: 2_048).decode(TestJPEG.quadrants(), fitting: PixelSize(width: 10, height: 10)).image.width == 10)
    }
}
