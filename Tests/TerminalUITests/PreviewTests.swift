import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

/// Rendering pixels into cells, the colour pairs behind them, and the views that show previews.
struct ImagePainterTests {
    /// Four rows of four pixels, each a colour whose palette entry is known.
    static let known: PreviewImage = {
        let rows: [[(UInt8, UInt8, UInt8)]] = [
            [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)],
            [(0, 0, 0), (95, 135, 175), (128, 128, 128), (255, 255, 0)],
            [(215, 175, 135), (0, 95, 0), (238, 238, 238), (175, 0, 255)],
            [(8, 8, 8), (135, 95, 215), (0, 0, 0), (255, 0, 255)],
        ]
        return PreviewImage(width: 4, height: 4, pixels: rows.flatMap { $0.flatMap { [$0.0, $0.1, $0.2] } })
    }()

    private func paint(_ image: PreviewImage, _ depth: Theme.Depth, width: Int = 4, height: Int = 2, name: Theme.Name = .dark) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        ImagePainter.draw(image, in: canvas.bounds, theme: Theme(name: name, depth: depth), into: &canvas)
        return canvas
    }

    private func colours(_ canvas: Canvas, row: Int) -> [String] {
        (0..<canvas.width).map { x in
            let cell = canvas[x, row]
            func number(_ color: TerminalColor) -> String {
                switch color {
                case .terminalDefault: "-"
                case .palette(let index): "\(index)"
                }
            }
            return "\(number(cell.style.foreground))/\(number(cell.style.background))"
        }
    }

    @Test func eachCellIsTwoPixelsAsAnUpperHalfBlockInThe256ColourCube() {
        let canvas = paint(Self.known, .colors256)
        #expect(canvas.lines == ["▀▀▀▀", "▀▀▀▀"])
        // Foreground is the upper pixel, background the lower; the 16 system colours are never used.
        #expect(colours(canvas, row: 0) == ["196/16", "46/67", "21/244", "231/226"])
        #expect(colours(canvas, row: 1) == ["180/232", "22/98", "255/16", "129/201"])
    }

    @Test func eightColourTerminalsGetTheANSIColours() {
        let canvas = paint(Self.known, .colors8)
        #expect(canvas[0, 0].style.foreground == .palette(1) && canvas[1, 0].style.foreground == .palette(2))
        #expect(canvas[2, 0].style.foreground == .palette(4) && canvas[3, 0].style.foreground == .palette(7))
        #expect(canvas[0, 0].style.background == .palette(0) && canvas[3, 1].style.background == .palette(5))
        for cell in canvas.cells {
            for color in [cell.style.foreground, cell.style.background] {
                guard case .palette(let index) = color else { continue }
                #expect(index < 8)
            }
        }
    }

    @Test func monochromeIsADensityRamp() {
        // Columns of grey 0, 85, 170 and 255: the ramp's first, fourth, seventh and last characters.
        let grey = PreviewImage(width: 4, height: 4, pixels: (0..<16).flatMap { index -> [UInt8] in
            let value = UInt8(index % 4 * 85)
            return [value, value, value]
        })
        #expect(paint(grey, .monochrome).lines == [" -*@", " -*@"])
        // A light background reads dense as dark.
        #expect(paint(grey, .monochrome, name: .light).lines == ["@*-", "@*-"])
        // Each cell is the mean luma of its two pixels.
        #expect(paint(Self.known, .monochrome).lines == [".+-@", "--=-"])
    }

    @Test func orderedDitheringMixesTheTwoNearestLevelsOfAGradient() {
        // Red 115 lies halfway between the cube's 95 (52) and 135 (88): half the pixels get each.
        let flat = PreviewImage(width: 4, height: 4, pixels: (0..<16).flatMap { _ in [115, 0, 0] as [UInt8] })
        let canvas = paint(flat, .colors256)
        var counts: [TerminalColor: Int] = [:]
        for cell in canvas.cells {
            counts[cell.style.foreground, default: 0] += 1
            counts[cell.style.background, default: 0] += 1
        }
        #expect(counts == [.palette(52): 8, .palette(88): 8])
        // A colour on the palette is not dithered.
        let exact = PreviewImage(width: 4, height: 4, pixels: (0..<16).flatMap { _ in [135, 0, 0] as [UInt8] })
        #expect(Set(paint(exact, .colors256).cells.map(\.style.foreground)) == [.palette(88)])
    }

    @Test func theImageIsCentredAndAnOddLastRowHasTheTerminalBackground() {
        let image = PreviewImage(width: 4, height: 3, pixels: Array(repeating: 255, count: 36))
        let canvas = paint(image, .colors256, width: 10, height: 5)
        #expect(canvas.lines == ["", "   ▀▀▀▀", "   ▀▀▀▀", "", ""])
        #expect(canvas[3, 1].text == "▀" && canvas[3, 2].style.background == .terminalDefault)
        #expect(canvas[3, 1].style.background == .palette(231))
        #expect(ImagePainter.pixelBox(for: Rect(x: 0, y: 0, width: 53, height: 15)) == PixelSize(width: 53, height: 30))
    }
}

struct ColorPairAllocatorTests {
    private typealias Colors = ColorPairAllocator.Colors
    private let list = Colors(foreground: 231, background: 238)

    @Test func pairsAreDefinedOnceAndSharedByEveryCellOfTheirColours() {
        var pairs = ColorPairAllocator(capacity: 4)
        let first = pairs.acquire(list)
        #expect(first == .init(pair: 1, mustDefine: true))
        #expect(pairs.acquire(list) == .init(pair: 1, mustDefine: false))
        #expect(pairs.useCount(1) == 2)
    }

    @Test func onlyPairsNoCellShowsAreRecycledOldestFirst() {
        var pairs = ColorPairAllocator(capacity: 3)
        _ = pairs.acquire(list)  // pair 1: the list's colours, on screen throughout
        let a = pairs.acquire(Colors(foreground: 196, background: 16)).pair
        let b = pairs.acquire(Colors(foreground: 46, background: 16)).pair
        #expect([a, b] == [2, 3])
        pairs.release(b)
        pairs.release(a)
        // The full screen preview needs new colours: b went first, so it is recycled first.
        let c = pairs.acquire(Colors(foreground: 21, background: 16))
        #expect(c == .init(pair: 3, mustDefine: true))
        let d = pairs.acquire(Colors(foreground: 226, background: 16))
        #expect(d == .init(pair: 2, mustDefine: true))
        #expect(pairs.colors(of: 1) == list)
        // Showing a recycled colour again defines a pair for it again.
        pairs.release(c.pair)
        #expect(pairs.acquire(Colors(foreground: 46, background: 16)) == .init(pair: 3, mustDefine: true))
    }

    @Test func whenEveryPairIsOnScreenTheNearestShownPairStandsIn() {
        var pairs = ColorPairAllocator(capacity: 2)
        _ = pairs.acquire(list)
        _ = pairs.acquire(Colors(foreground: 196, background: 16))
        let stand = pairs.acquire(Colors(foreground: 160, background: 16))
        #expect(stand == .init(pair: 2, mustDefine: false))
        #expect(pairs.colors(of: 1) == list && pairs.useCount(2) == 2)
    }

    @Test func aFullRedrawReleasesEveryPairWithoutForgettingItsColours() {
        var pairs = ColorPairAllocator(capacity: 2)
        _ = pairs.acquire(list)
        _ = pairs.acquire(Colors(foreground: 196, background: 16))
        pairs.releaseAll()
        #expect(pairs.useCount(1) == 0 && pairs.useCount(2) == 0)
        #expect(pairs.acquire(list) == .init(pair: 1, mustDefine: false))
        #expect(pairs.acquire(Colors(foreground: 46, background: 16)) == .init(pair: 2, mustDefine: true))
    }

    @Test func theDriverNeverRedefinesAPairTheListShowsDuringAFullScreenPreview() {
        // 16 pairs for a preview of 200 colours: the list's pairs stay on screen and keep their colours.
        var pairs = ColorPairAllocator(capacity: 16)
        let listPairs = (0..<3).map { pairs.acquire(Colors(foreground: Int32(250 + $0), background: 238)).pair }
        var onScreen: [Int32] = []
        for frame in 0..<20 {
            onScreen.forEach { pairs.release($0) }
            onScreen = (0..<10).map { pairs.acquire(Colors(foreground: Int32(16 + (frame * 10 + $0) % 200), background: 16)).pair }
            for (offset, pair) in listPairs.enumerated() {
                #expect(pairs.colors(of: pair) == Colors(foreground: Int32(250 + offset), background: 238))
            }
        }
    }
}

@MainActor
struct PreviewViewTests {
    private func store(_ states: [(PreviewRequest, PreviewState)]) -> PreviewStore {
        let store = PreviewStore()
        for (request, state) in states { store.store(state, for: request) }
        return store
    }

    private func image(_ size: PixelSize) -> PreviewImage {
        PreviewImage(width: size.width, height: size.height, pixels: (0..<size.width * size.height).flatMap { [UInt8($0 % 256), 120, 200] })
    }

    @Test func theSidePaneWantsItsPreviewAndShowsAPlaceholderUntilItArrives() throws {
        let (canvas, layout, wants) = Fixture.renderWanting(Fixture.state(), width: 120, height: 40)
        let pane = try #require(layout.sidePane)
        let request = PreviewRequest(photoID: 1, box: ImagePainter.pixelBox(for: Screen.sidePanePreview(in: pane)))
        // The shown preview first, then the three the cursor moves towards.
        #expect(wants == [1, 2, 3, 4].map { PreviewRequest(photoID: $0, box: request.box) })
        #expect(canvas.contains("loading…") && canvas.contains("4,000 × 3,000"))

        let (loaded, _) = Fixture.render(Fixture.state(), width: 120, height: 40, previews: store([(request, .loaded(image(PixelSize(width: 40, height: 30))))]))
        #expect(!loaded.contains("loading…"))
        let cells = (pane.x..<pane.maxX).flatMap { x in (pane.y..<pane.maxY).map { loaded[x, $0] } }.filter { $0.text == "▀" }
        #expect(cells.count == 40 * 15)
    }

    @Test(arguments: Fixture.depths)
    func aPreviewThatCannotBeShownIsAGreyBoxSayingWhy(depth: Theme.Depth) throws {
        let (_, layout, wants) = Fixture.renderWanting(Fixture.state(), width: 120, height: 40, depth: depth)
        let previews = store([(try #require(wants.first), .failed(.corrupt("bad Huffman code")))])
        let (canvas, _) = Fixture.render(Fixture.state(), width: 120, height: 40, depth: depth, previews: previews)
        #expect(canvas.contains("no preview") && canvas.contains("damaged JPEG"))
        let row = try #require(canvas.row(containing: "no preview"))
        let x = try #require(layout.sidePane).x + 10
        #expect(canvas[x, row].style == Theme(depth: depth).noPreview)
    }

    @Test(arguments: Fixture.sizes)
    func theGridIsAContactSheetOfTilesWithNamesAndTagChips(size: (Int, Int)) throws {
        var ui = UIState()
        ui.mode = .grid
        for depth in Fixture.depths {
            let (canvas, layout, wants) = Fixture.renderWanting(Fixture.state(), ui: ui, width: size.0, height: size.1, depth: depth)
            let grid = try #require(layout.grid)
            #expect(!canvas.contains("Taken"))
            #expect(canvas[grid.area.x, grid.area.y].text == "┌", "the current tile is framed")
            #expect(canvas.contains("R0001.JPG"))
            #expect(canvas.contains(depth == .monochrome ? "#Favourite" : "●Favourite"))
            // Every tile in view, then the next row of them.
            #expect(wants.count == min(40, grid.columns * (grid.rows + 1)))
            #expect(wants.first?.photoID == 1)
            #expect(wants.first?.box == ImagePainter.pixelBox(for: grid.thumbnail(in: grid.tile(row: 0, column: 0))))
        }
    }

    @Test func theGridFillsALowWindowWithSmallerTilesRatherThanAGap() throws {
        let low = try #require(ScreenLayout(width: 80, height: 24, showsStrip: false, mode: .grid).grid)
        #expect(low.columns == 3 && low.rows == 2 && low.thumbnailRows == 7)
        let tall = try #require(ScreenLayout(width: 120, height: 40, showsStrip: false, mode: .grid).grid)
        #expect(tall.columns == 5 && tall.rows == 3 && tall.thumbnailRows == 7)
        let small = try #require(ScreenLayout(width: 40, height: 12, showsStrip: false, mode: .grid).grid)
        #expect(small.columns == 1 && small.rows == 1 && small.tileHeight <= small.area.height)
    }

    @Test func gridThumbnailsAreWantedNearestTheCursorFirstAndDrawnFromTheStore() throws {
        var state = Fixture.state()
        var ui = UIState()
        ui.mode = .grid
        let layout = ScreenLayout(width: 120, height: 40, showsStrip: false, mode: .grid)
        let grid = try #require(layout.grid)
        #expect(grid.columns == 5 && grid.rows == 3)
        _ = state.apply(.viewResized(rows: layout.pageItems))
        _ = state.apply(.cursorMoved(.position(7)))
        let (_, _, wants) = Fixture.renderWanting(state, ui: ui, width: 120, height: 40)
        #expect(wants.first?.photoID == 8 && Set(wants[1...2].map(\.photoID)) == [7, 9])
        let thumbnail = try #require(wants.first)
        let (canvas, _) = Fixture.render(state, ui: ui, width: 120, height: 40, previews: store([(thumbnail, .loaded(image(PixelSize(width: 21, height: 14))))]))
        // Photo 8 is the third tile of the second row.
        let tile = grid.tile(row: 1, column: 2)
        #expect(canvas[tile.x, tile.y].text == "┌")
        #expect((tile.x + 1..<tile.maxX - 1).allSatisfy { canvas[$0, tile.y + 1].text == "▀" })
    }

    @Test(arguments: Fixture.sizes)
    func theFullScreenPreviewFillsTheBodyWithACaption(size: (Int, Int)) throws {
        var ui = UIState()
        ui.fullPreview = true
        let (canvas, layout, wants) = Fixture.renderWanting(Fixture.state(), ui: ui, width: size.0, height: size.1)
        let request = try #require(wants.first)
        #expect(request.box == PixelSize(width: layout.body.width, height: (layout.body.height - 1) * 2))
        let caption = canvas.lines[layout.body.maxY - 1]
        #expect(caption.contains("1/40") && caption.contains("R0001.JPG"))
        let (loaded, _) = Fixture.render(Fixture.state(), ui: ui, width: size.0, height: size.1,
                                         previews: store([(request, .loaded(image(PixelSize(width: 20, height: 10))))]))
        #expect(loaded.text.filter { $0 == "▀" }.count == 20 * 5)
    }

    @Test func wantsAreTheShownPhotoThenTheNextTheWayTheCursorLastMoved() throws {
        var state = Fixture.state()
        let screen = Screen(context: Fixture.context(.colors256))
        let layout = screen.layout(width: 120, height: 40, state: state)
        _ = state.apply(.viewResized(rows: layout.pageItems))
        _ = state.apply(.cursorMoved(.position(10)))
        var ui = UIState()
        let box = ImagePainter.pixelBox(for: Screen.sidePanePreview(in: try #require(layout.sidePane)))
        #expect(screen.previewWants(state, ui, layout: layout) == [11, 12, 13, 14].map { PreviewRequest(photoID: $0, box: box) })
        ui.travel = -1
        #expect(screen.previewWants(state, ui, layout: layout).map(\.photoID) == [11, 10, 9, 8])
        ui.mode = .grid
        ui.travel = 1
        let gridLayout = screen.layout(width: 120, height: 40, state: state, mode: .grid)
        _ = state.apply(.viewResized(rows: gridLayout.pageItems))
        _ = state.apply(.cursorMoved(.position(0)))
        // The sheet shows rows 0–2 (photos 1–15), nearest the cursor first; then the next row, photos 16–20.
        let wants = screen.previewWants(state, ui, layout: gridLayout).map(\.photoID)
        #expect(wants == Array(1...15) + [16, 17, 18, 19, 20])
        // The drawn frame asks for the same.
        #expect(screen.frame(state, ui, width: 120, height: 40).wants.map(\.photoID) == wants)
    }
}
