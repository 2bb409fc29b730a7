import PhotoImaging
import PhotoPickTestSupport
import Testing

/// The loupe's view over an original: where it opens, how it pans, and that its pixels are the
/// original's at 1:1.
struct LoupeTests {
    private let decoder = PreviewDecoder()

    /// Decodes whatever the loupe asks for, as the app does.
    private func fill(_ loupe: inout Loupe, from bytes: [UInt8]) throws {
        guard let region = loupe.regionToDecode else { return }
        let decoded = try decoder.decodeRegion(bytes, x: region.x, y: region.y, width: region.width, height: region.height)
        loupe.decoded(decoded.image, x: decoded.originX, y: decoded.originY)
    }

    @Test func itOpensOnTheGivenPointAndStaysInsideTheImage() {
        let size = PixelSize(width: 6000, height: 4000)
        let loupe = Loupe(imageSize: size, viewport: PixelSize(width: 1200, height: 600), centre: (0.25, 0.5))
        #expect(loupe.view == Loupe.Region(x: 900, y: 1700, width: 1200, height: 600))
        let corner = Loupe(imageSize: size, viewport: PixelSize(width: 1200, height: 600), centre: (1, 0))
        #expect(corner.view == Loupe.Region(x: 4800, y: 0, width: 1200, height: 600))
        let small = Loupe(imageSize: PixelSize(width: 300, height: 200), viewport: PixelSize(width: 1200, height: 600), centre: (0.5, 0.5))
        #expect(small.view == Loupe.Region(x: 0, y: 0, width: 300, height: 200), "an image smaller than the view shows whole")
    }

    @Test func aPanMovesAThirdAndStaysInTheBandUntilItLeavesIt() throws {
        let bytes = TestJPEG.detailed()
        let full = try decoder.decode(bytes, fitting: PixelSize(width: 10_000, height: 10_000)).image
        var loupe = Loupe(imageSize: full.size, viewport: PixelSize(width: 90, height: 60), centre: (0.5, 0.5))
        #expect(loupe.pixels == nil && loupe.regionToDecode != nil)
        try fill(&loupe, from: bytes)
        #expect(loupe.regionToDecode == nil)
        func expectOneToOne() throws {
            let shown = try #require(loupe.pixels)
            for (x, y) in [(0, 0), (45, 30), (89, 59)] {
                #expect(shown[x, y] == full[loupe.view.x + x, loupe.view.y + y], "at \(x),\(y) of the view")
            }
        }
        try expectOneToOne()
        let before = loupe.view
        loupe.pan(.right)
        #expect(loupe.view.x == before.x + 30 && loupe.view.y == before.y)
        #expect(loupe.regionToDecode == nil, "a pan by a third is inside the band: no decode")
        try expectOneToOne()
        loupe.pan(.right)
        #expect(loupe.regionToDecode != nil, "a second pan leaves the band")
        try fill(&loupe, from: bytes)
        try expectOneToOne()
        for _ in 0..<20 { loupe.pan(.down) }
        #expect(loupe.view.y == full.height - 60, "it stops at the bottom edge")
        try fill(&loupe, from: bytes)
        try expectOneToOne()
        loupe.follow((0, 0))
        #expect(loupe.view.x == 0 && loupe.view.y == 0)
    }

    @Test func theBandAheadIsDecodedWhenTheNextPanWouldLeaveTheBandSoEveryPanIsACopy() throws {
        let bytes = TestJPEG.detailed()
        let full = try decoder.decode(bytes, fitting: PixelSize(width: 10_000, height: 10_000)).image
        var loupe = Loupe(imageSize: full.size, viewport: PixelSize(width: 90, height: 60), centre: (0.5, 0.5))
        #expect(loupe.bandAhead == nil, "nothing decoded yet: the view itself comes first")
        try fill(&loupe, from: bytes)
        #expect(loupe.bandAhead == nil, "just decoded around the view: every pan is inside")
        for direction in [Loupe.Direction.right, .right, .down, .left, .left, .up] {
            loupe.pan(direction)
            #expect(loupe.regionToDecode == nil, "\(direction): a copy, the band ahead was decoded")
            let ahead = try #require(loupe.bandAhead, "\(direction): the next pan that way would leave the band")
            #expect(ahead.contains(loupe.view) && ahead.x <= loupe.view.x - 30 || ahead.x == 0)
            let decoded = try decoder.decodeRegion(bytes, x: ahead.x, y: ahead.y, width: ahead.width, height: ahead.height)
            loupe.decoded(decoded.image, x: decoded.originX, y: decoded.originY)
            #expect(loupe.bandAhead == nil)
            let shown = try #require(loupe.pixels)
            #expect(shown[10, 10] == full[loupe.view.x + 10, loupe.view.y + 10])
        }
    }

    /// For a picture whose decode costs by its area (a HEIC grid's tiles) the view alone is decoded first,
    /// then the band around it as the band ahead; a pan inside that band is a copy.
    @Test func viewFirstDecodesTheViewThenTheBandAroundItAhead() {
        var loupe = Loupe(imageSize: PixelSize(width: 4032, height: 3024), viewport: PixelSize(width: 1920, height: 1080), centre: (0.5, 0.5))
        let view = loupe.view
        #expect(loupe.regionToDecode(viewFirst: true) == view)
        let reach = loupe.regionToDecode(viewFirst: false)
        #expect(reach != view && reach.map { $0.contains(view) } == true)
        loupe.decoded(PreviewImage(width: view.width, height: view.height, pixels: [UInt8](repeating: 9, count: view.width * view.height * 3)), x: view.x, y: view.y)
        #expect(loupe.regionToDecode(viewFirst: true) == nil && loupe.pixels != nil)
        #expect(loupe.bandAhead == reach, "the band around the view follows, in the background")
    }

    /// The band for a 4K screen on a 24 MP picture would be 90% of it (65 MB of RGB) with margins of a
    /// third: past `bandBudget` they narrow, never below the view itself.
    @Test func onALargeScreenTheBandStaysInsideItsBudget() {
        let picture = PixelSize(width: 6000, height: 4000)
        func band(_ viewport: PixelSize) -> Loupe.Region? {
            var loupe = Loupe(imageSize: picture, viewport: viewport, centre: (0.5, 0.5))
            guard let region = loupe.regionToDecode else { return nil }
            loupe.decoded(PreviewImage(width: region.width, height: region.height, pixels: [UInt8](repeating: 0, count: region.width * region.height * 3)), x: region.x, y: region.y)
            return loupe.bandAhead == nil ? region : nil
        }
        let hd = band(PixelSize(width: 1920, height: 1080))
        #expect(hd == Loupe.Region(x: 2040, y: 1460, width: 1920, height: 1080).expanded(by: 640, 360), "inside the budget: a third on every side")
        let qhd = band(PixelSize(width: 2560, height: 1440))
        #expect(qhd.map { $0.width * $0.height <= Loupe.bandBudget && $0.width > 2560 && $0.height > 1440 } == true, "narrower margins: \(String(describing: qhd))")
        let uhd = band(PixelSize(width: 3840, height: 2160))
        #expect(uhd == Loupe.Region(x: 1080, y: 920, width: 3840, height: 2160), "a view past the budget is decoded alone")
    }

    @Test func theSharpestPointIsWhereTheDetailIs() {
        // Flat grey but for a patch of fine checks in the lower right.
        let width = 240, height = 160
        var pixels = [UInt8](repeating: 128, count: width * height * 3)
        for y in 110..<150 {
            for x in 180..<230 where (x / 2 + y / 2) % 2 == 0 {
                for c in 0..<3 { pixels[(y * width + x) * 3 + c] = 230 }
            }
        }
        let point = FocusScore.sharpestPoint(PreviewImage(width: width, height: height, pixels: pixels))
        #expect(point.x > 0.66 && point.y > 0.66, "\(point)")
        let flat = FocusScore.sharpestPoint(PreviewImage(width: 64, height: 64, pixels: [UInt8](repeating: 90, count: 64 * 64 * 3)))
        #expect(flat.x == 0.5 && flat.y == 0.5)
    }
}

extension Loupe.Region {
    /// Grown by `x` on the left and right and `y` above and below.
    fileprivate func expanded(by x: Int, _ y: Int) -> Loupe.Region {
        Loupe.Region(x: self.x - x, y: self.y - y, width: width + 2 * x, height: height + 2 * y)
    }
}
