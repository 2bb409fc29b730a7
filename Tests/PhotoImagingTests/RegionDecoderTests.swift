import PhotoImaging
import PhotoPickTestSupport
import Testing

/// The loupe's decoder: a region at 100%, equal to the same pixels of a whole decode.
struct RegionDecoderTests {
    private let decoder = PreviewDecoder()

    /// The whole image at full size, upright.
    private func whole(_ bytes: [UInt8]) throws -> PreviewImage {
        try decoder.decode(bytes, fitting: PixelSize(width: 10_000, height: 10_000)).image
    }

    private func crop(_ image: PreviewImage, x: Int, y: Int, width: Int, height: Int) -> [UInt8] {
        var pixels: [UInt8] = []
        for row in y..<(y + height) {
            let start = (row * image.width + x) * 3
            pixels += image.pixels[start..<(start + width * 3)]
        }
        return pixels
    }

    @Test(arguments: [
        (100, 80, 64, 48),  // inside
        (0, 0, 40, 30),  // the top left corner
        (293, 177, 40, 40),  // the bottom right corner, partial blocks
        (0, 100, 333, 10),  // a band across
        (170, 0, 1, 217),  // one column, top to bottom
        (5, 211, 300, 6),  // the last rows
        (0, 0, 333, 217),  // all of it
        (331, 215, 1, 1),  // one pixel at the corner
    ])
    func aRegionEqualsTheSamePixelsOfAWholeDecode(x: Int, y: Int, width: Int, height: Int) throws {
        for progressive in [false, true] {
            let bytes = TestJPEG.detailed(progressive: progressive)
            let full = try whole(bytes)
            let region = try decoder.decodeRegion(bytes, x: x, y: y, width: width, height: height)
            #expect(region.originX == x && region.originY == y && region.image.size == PixelSize(width: width, height: height))
            #expect(region.image.pixels == crop(full, x: x, y: y, width: width, height: height), "progressive \(progressive)")
        }
    }

    @Test(arguments: 1...8)
    func everyOrientationIsUprightWhenZoomed(orientation: Int) throws {
        let bytes = TestJPEG.detailed(orientation: orientation)
        let full = try whole(bytes)
        #expect(full.size == (orientation >= 5 ? PixelSize(width: 217, height: 333) : PixelSize(width: 333, height: 217)))
        for (x, y, width, height) in [(10, 20, 50, 40), (0, 0, 17, 300), (full.width - 30, full.height - 25, 30, 25)] {
            let region = try decoder.decodeRegion(bytes, x: x, y: y, width: width, height: height)
            // Clipped to the picture, which is 217 or 333 high as it stands.
            #expect(region.image.size == PixelSize(width: width, height: min(height, full.height - y)))
            #expect(region.image.pixels == crop(full, x: x, y: y, width: region.image.width, height: region.image.height), "orientation \(orientation) at \(x),\(y)")
            #expect(region.info.orientation == orientation)
        }
    }

    @Test func aRegionPastTheEdgeIsClippedAndOneOutsideIsRefused() throws {
        let bytes = TestJPEG.detailed()
        let full = try whole(bytes)
        let region = try decoder.decodeRegion(bytes, x: 300, y: -20, width: 100, height: 60)
        #expect(region.originX == 300 && region.originY == 0 && region.image.size == PixelSize(width: 33, height: 40))
        #expect(region.image.pixels == crop(full, x: 300, y: 0, width: 33, height: 40))
        #expect(throws: PreviewError.self) { try decoder.decodeRegion(bytes, x: 400, y: 0, width: 10, height: 10) }
        #expect(throws: PreviewError.notJPEG) { try decoder.decodeRegion(Array("no".utf8), x: 0, y: 0, width: 1, height: 1) }
        let truncated = Array(bytes.prefix(bytes.count / 2))
        #expect(throws: PreviewError.self) { try decoder.decodeRegion(truncated, x: 0, y: 200, width: 10, height: 10) }
    }
}
