@testable import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPreviews
import PhotoPickTestSupport
import Testing
@testable import TerminalUI

/// Previews as libchafa's symbols in cells, at every colour depth, and the boxes and cells each mode uses.
struct SymbolPreviewTests {
    /// `columns` × `rows` cells' worth of pixels (8×16 a cell), each pixel from `color(x, y)`.
    static func image(columns: Int, rows: Int, _ color: (Int, Int) -> (UInt8, UInt8, UInt8)) -> PreviewImage {
        let width = columns * 8, height = rows * 16
        return PreviewImage(width: width, height: height, pixels: (0..<height).flatMap { y in
            (0..<width).flatMap { x -> [UInt8] in
                let c = color(x, y)
                return [c.0, c.1, c.2]
            }
        })
    }

    private func paint(_ image: PreviewImage, _ depth: Theme.Depth) -> Canvas {
        let graphics = Graphics.symbols(depth)
        var canvas = Canvas(width: image.width / 8, height: image.height / 16)
        PreviewDrawing.draw(image, box: image.size, in: canvas.bounds, graphics: graphics, into: &canvas)
        return canvas
    }

    /// What a cell shows in its upper and lower half, from its block symbol and colours.
    private func halves(_ cell: Cell) -> (upper: TerminalColor, lower: TerminalColor) {
        switch cell.text {
        case "▀": (cell.style.foreground, cell.style.background)
        case "▄": (cell.style.background, cell.style.foreground)
        case "█": (cell.style.foreground, cell.style.foreground)
        default: (cell.style.background, cell.style.background)
        }
    }

    @Test func anEdgeAcrossACellIsAHalfBlockInTheImagesOwnColoursIn24Bit() {
        // White above, deep blue below, the edge across the middle of each cell.
        let image = Self.image(columns: 3, rows: 2) { _, y in y % 16 < 8 ? (255, 255, 255) : (10, 20, 120) }
        let canvas = paint(image, .direct)
        for cell in canvas.cells {
            let (upper, lower) = halves(cell)
            #expect(upper == .rgb(255, 255, 255) && lower == .rgb(10, 20, 120), "\(cell)")
        }
    }

    @Test func aPhotoScaledDownKeepsItsColours() {
        // 139×208 pixels, purple on the left and orange on the right, into 6×4 cells: each cell is
        // within a few levels of its side's colour (libchafa's RGB input once turned this grey).
        let width = 139, height = 208
        let image = PreviewImage(width: width, height: height, pixels: (0..<height).flatMap { _ in
            (0..<width).flatMap { x -> [UInt8] in x < width / 2 ? [90, 56, 153] : [230, 140, 40] }
        })
        var canvas = Canvas(width: 6, height: 4)
        PreviewDrawing.draw(image, box: PixelSize(width: 48, height: 64), in: canvas.bounds, graphics: .symbols(.direct), into: &canvas)
        for (x, expected) in [(0, (90, 56, 153)), (5, (230, 140, 40))] {
            guard case .rgb(let r, let g, let b) = halves(canvas[x, 1]).upper else { Issue.record("\(canvas[x, 1])"); continue }
            #expect(abs(Int(r) - expected.0) + abs(Int(g) - expected.1) + abs(Int(b) - expected.2) < 30, "\(r),\(g),\(b)")
        }
    }

    @Test func in256ColoursTheSymbolsUseTheCubeAndGreysNeverTheSystemColours() {
        let image = Self.image(columns: 8, rows: 4) { x, y in (UInt8(x * 4), UInt8(y * 4), 200) }
        let canvas = paint(image, .colors256)
        var used = Set<UInt8>()
        for cell in canvas.cells {
            for color in [cell.style.foreground, cell.style.background] {
                guard case .palette(let index) = color else { Issue.record("not a palette colour: \(color)"); continue }
                used.insert(index)
            }
        }
        #expect(used.allSatisfy { $0 >= 16 } && used.count > 4)
        // Pure colours land on their cube entries: red 196, green 46, blue 21, white 231.
        for (rgb, index) in [((255, 0, 0), 196), ((0, 255, 0), 46), ((0, 0, 255), 21), ((255, 255, 255), 231)] as [((UInt8, UInt8, UInt8), UInt8)] {
            let flat = paint(Self.image(columns: 2, rows: 1) { _, _ in rgb }, .colors256)
            #expect(halves(flat[0, 0]).upper == .palette(index), "\(rgb)")
        }
    }

    @Test func in256ColoursAFlatColourStaysFlatAndAHalfBlockKeepsItsContrast() {
        // A flat purple between the cube's entries: every cell shows the same entry, the nearest there
        // is (no speckle from carrying what one cell misses to the next).
        var cells = SymbolCells(columns: 12, rows: 6, indexed: false)
        for index in cells.characters.indices {
            cells.characters[index] = 0x2588
            cells.foreground[index] = 130 << 16 | 70 << 8 | 165
        }
        let mapped = PaletteDiffusion.quantise(cells, to: .xterm256)
        #expect(Set(mapped.foreground).count == 1, "\(Set(mapped.foreground))")
        let shown = XtermPalette.rgb(UInt8(mapped.foreground[0]))
        func redmean(_ c: (Int, Int, Int)) -> Double {
            let r = Double(c.0 + 130) / 2, dr = Double(c.0 - 130), dg = Double(c.1 - 70), db = Double(c.2 - 165)
            return (2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db
        }
        let nearest = (16...255).min { redmean(XtermPalette.rgb(UInt8($0))) < redmean(XtermPalette.rgb(UInt8($1))) }!
        #expect(redmean(shown) <= redmean(XtermPalette.rgb(UInt8(nearest))))
        // An upper half block of a light grey over a dark one: the pair chosen keeps the luminance step.
        var half = SymbolCells(columns: 1, rows: 1, indexed: false)
        half.characters[0] = 0x2580
        half.foreground[0] = 200 << 16 | 190 << 8 | 180
        half.background[0] = 40 << 16 | 45 << 8 | 50
        let pair = PaletteDiffusion.quantise(half, to: .xterm256)
        func luma(_ c: (Int, Int, Int)) -> Double { 0.299 * Double(c.0) + 0.587 * Double(c.1) + 0.114 * Double(c.2) }
        let step = luma(XtermPalette.rgb(UInt8(pair.foreground[0]))) - luma(XtermPalette.rgb(UInt8(pair.background[0])))
        #expect(abs(step - (luma((200, 190, 180)) - luma((40, 45, 50)))) < 25, "step \(step)")
    }

    /// Halves of greys with a tint, as a dusk sky is: no half is drawn in a colour much more saturated
    /// than its own. Chosen by the cell's mean alone, a grey half and a magenta one stood for purple.
    @Test func in256ColoursNoHalfIsDrawnFarMoreSaturatedThanItsPixels() {
        var generator = SplitMix(seed: 42)
        var cells = SymbolCells(columns: 40, rows: 25, indexed: false)
        func tinted() -> Int32 {
            let base = Int.random(in: 30...200, using: &generator)
            let r = base + Int.random(in: -12...12, using: &generator), g = base + Int.random(in: -12...12, using: &generator)
            let b = base + Int.random(in: -12...12, using: &generator)
            return Int32(r << 16 | g << 8 | b)
        }
        for index in cells.characters.indices {
            cells.characters[index] = [0x2580, 0x2584, 0x258C, 0x2590][index % 4]
            cells.foreground[index] = tinted()
            cells.background[index] = tinted()
        }
        let mapped = PaletteDiffusion.quantise(cells, to: .xterm256)
        func chroma(_ c: (Int, Int, Int)) -> Int { max(c.0, c.1, c.2) - min(c.0, c.1, c.2) }
        func chroma(packed: Int32) -> Int { chroma((Int(packed >> 16 & 255), Int(packed >> 8 & 255), Int(packed & 255))) }
        var worst = 0
        for index in cells.characters.indices {
            worst = max(worst, chroma(XtermPalette.rgb(UInt8(mapped.foreground[index]))) - chroma(packed: cells.foreground[index]))
            worst = max(worst, chroma(XtermPalette.rgb(UInt8(mapped.background[index]))) - chroma(packed: cells.background[index]))
        }
        // The cube's nearest step is 40 levels; a magenta half is 135 and more.
        #expect(worst <= 60, "a half drawn \(worst) levels of chroma over its pixels'")
    }

    @Test func theNeighbourhoodSearchedHoldsTheNearestEntry() {
        var generator = SystemRandomNumberGenerator()
        let entries = PaletteDiffusion.Palette.xterm256.entries
        func redmean(_ a: (Int, Int, Int), _ b: (Double, Double, Double)) -> Double {
            let r = (Double(a.0) + b.0) / 2, dr = Double(a.0) - b.0, dg = Double(a.1) - b.1, db = Double(a.2) - b.2
            return (2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db
        }
        for _ in 0..<3000 {
            let color = (Double(generator.next() % 256), Double(generator.next() % 256), Double(generator.next() % 256))
            let nearest = entries.indices.min { redmean(entries[$0], color) < redmean(entries[$1], color) }!
            let around = PaletteDiffusion.xterm256Neighbourhood(color)
            #expect(around.contains { redmean(entries[$0], color) <= redmean(entries[nearest], color) }, "\(color)")
        }
    }

    @Test func eightColourTerminalsGetTheANSIColours() {
        let image = Self.image(columns: 4, rows: 2) { x, _ in x < 16 ? (230, 20, 20) : (20, 20, 230) }
        let canvas = paint(image, .colors8)
        #expect(canvas.cells.allSatisfy { cell in
            [cell.style.foreground, cell.style.background].allSatisfy { if case .palette(let index) = $0 { index < 8 } else { false } }
        })
        #expect(halves(canvas[0, 0]).upper == .palette(1) && halves(canvas[3, 0]).upper == .palette(4))
    }

    @Test func monochromeShowsLightAsInkAndDarkAsPaperWithoutColours() {
        let image = Self.image(columns: 4, rows: 2) { x, _ in x < 16 ? (250, 250, 250) : (5, 5, 5) }
        let canvas = paint(image, .monochrome)
        #expect(canvas.lines == ["██", "██"])
        #expect(canvas.cells.allSatisfy { $0.style.foreground == .terminalDefault && $0.style.background == .terminalDefault })
    }

    @Test func symbolsKeepThePhotosShapeInWholeCells() {
        let renderer = PreviewRenderer(graphics: .symbols(.colors256))
        let area = Rect(x: 0, y: 0, width: 49, height: 36)
        let box = try! #require(renderer.box(for: area))
        #expect(box == PixelSize(width: 392, height: 576))
        // A 4:3 photo fitted to 392×294 pixels: 49 columns, 18 rows of 8×16.
        #expect(renderer.cells(for: PixelSize(width: 392, height: 294), in: box) == (49, 18))
        // With the terminal's real cells of 10×20, a symbol cell stands for 8×16 still, the same shape.
        var graphics = Graphics.symbols(.direct)
        graphics.cell = PixelSize(width: 9, height: 18)
        #expect(PreviewRenderer(graphics: graphics).symbolCell == PixelSize(width: 8, height: 16))
    }

    @Test func pixelModesDecodeForTheAreasPixelsAndCoverEveryCellTheImageTouches() {
        var graphics = Graphics.symbols(.direct)
        graphics.mode = .sixel
        graphics.cell = PixelSize(width: 10, height: 19)
        graphics.sixelLimit = PixelSize(width: 800, height: 480)
        let sixel = PreviewRenderer(graphics: graphics)
        // 100×50 cells is 1000×950 pixels: cut to the terminal's sixel limit, the height a multiple of six.
        #expect(sixel.box(for: Rect(x: 0, y: 0, width: 100, height: 50)) == PixelSize(width: 800, height: 480))
        #expect(sixel.box(for: Rect(x: 0, y: 0, width: 21, height: 6)) == PixelSize(width: 210, height: 114))
        // 171 pixels across 10-pixel cells touch 18 of them; 114 down touch 6.
        #expect(sixel.cells(for: PixelSize(width: 171, height: 114), in: PixelSize(width: 210, height: 114)) == (18, 6))
        // xterm's 8×17 cells, a tile of 10×7: the box is 80×114 (119 cut to a multiple of six), and a
        // portrait 76×114 reaches into the seventh row, which it must own, or that row's text paints over it.
        var xterm = graphics
        xterm.cell = PixelSize(width: 8, height: 17)
        let tile = PreviewRenderer(graphics: xterm)
        let box = tile.box(for: Rect(x: 0, y: 0, width: 10, height: 7))
        #expect(box == PixelSize(width: 80, height: 114))
        #expect(tile.cells(for: PixelSize(width: 76, height: 114), in: box!) == (10, 7))
        graphics.mode = .kitty
        #expect(PreviewRenderer(graphics: graphics).box(for: Rect(x: 0, y: 0, width: 100, height: 50)) == PixelSize(width: 1000, height: 950))
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

struct PreviewViewTests {
    /// A store holding `states`, each loaded preview rendered as the loader would for `depth`.
    private func store(_ states: [(PreviewRequest, PreviewState)], depth: Theme.Depth = .colors256) -> PreviewStore {
        let store = PreviewStore(clock: Timekeeper(TestClock()))
        let render = Graphics.symbols(depth).renderer
        for (request, state) in states {
            guard case .loaded(let image) = state else {
                store.store(state, for: request)
                continue
            }
            store.store(state, rendering: render(request, image, []), for: request)
        }
        return store
    }

    private static func box(_ area: Rect) -> PixelSize { PreviewRenderer(graphics: .symbols(.colors256)).box(for: area)! }

    private func image(_ size: PixelSize) -> PreviewImage {
        PreviewImage(width: size.width, height: size.height, pixels: (0..<size.width * size.height).flatMap { [UInt8($0 % 256), 120, 200] })
    }

    @Test func theSidePaneWantsItsPreviewAndShowsAPlaceholderUntilItArrives() throws {
        let (canvas, layout, wants) = Fixture.renderWanting(Fixture.state(), width: 120, height: 40)
        let pane = try #require(layout.sidePane)
        let request = PreviewRequest(photoID: 1, box: Self.box(SidePaneView.sidePanePreview(in: pane)))
        // The shown preview first, then the three the cursor moves towards.
        #expect(wants == [1, 2, 3, 4].map { PreviewRequest(photoID: $0, box: request.box) })
        #expect(canvas.contains("loading…") && canvas.contains("4,000 × 3,000"))

        let (loaded, _) = Fixture.render(Fixture.state(), width: 120, height: 40, previews: store([(request, .loaded(image(PixelSize(width: 40, height: 32))))]))
        #expect(!loaded.contains("loading…"))
        // 40×32 pixels are 5×2 cells of symbols, in colours of the palette.
        let cells = (pane.x..<pane.maxX).flatMap { x in (pane.y..<pane.maxY).map { loaded[x, $0] } }
            .filter { if case .palette(let index) = $0.style.background { index >= 16 } else { false } }
        #expect(cells.count == 5 * 2)
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
            #expect(wants.first?.box == PreviewRenderer(graphics: .symbols(depth)).box(for: grid.thumbnail(in: grid.tile(row: 0, column: 0))))
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
        _ = state.apply(.browsing(.viewResized(rows: layout.pageItems)))
        _ = state.apply(.browsing(.cursorMoved(.position(7))))
        let (_, _, wants) = Fixture.renderWanting(state, ui: ui, width: 120, height: 40)
        #expect(wants.first?.photoID == 8 && Set(wants[1...2].map(\.photoID)) == [7, 9])
        let thumbnail = try #require(wants.first)
        let (canvas, _) = Fixture.render(state, ui: ui, width: 120, height: 40, previews: store([(thumbnail, .loaded(image(PixelSize(width: 168, height: 112))))]))
        // Photo 8 is the third tile of the second row; its thumbnail fills the tile's width.
        let tile = grid.tile(row: 1, column: 2)
        #expect(canvas[tile.x, tile.y].text == "┌")
        let placement = try #require(canvas.images.first)
        #expect(canvas.images.count == 1 && placement.photoID == 8 && placement.rect.width == 21 && placement.rect.height == 7)
        #expect(placement.rect.x == tile.x + 1 && placement.rect.maxX == tile.maxX - 1)
    }

    @Test(arguments: Fixture.sizes)
    func theFullScreenPreviewFillsTheBodyWithACaption(size: (Int, Int)) throws {
        var ui = UIState()
        ui.fullPreview = true
        let (canvas, layout, wants) = Fixture.renderWanting(Fixture.state(), ui: ui, width: size.0, height: size.1)
        let request = try #require(wants.first)
        #expect(request.box == PixelSize(width: layout.body.width * 8, height: (layout.body.height - 1) * 16))
        let caption = canvas.lines[layout.body.maxY - 1]
        #expect(caption.contains("1/40") && caption.contains("R0001.JPG"))
        let (loaded, _) = Fixture.render(Fixture.state(), ui: ui, width: size.0, height: size.1,
                                         previews: store([(request, .loaded(image(PixelSize(width: 160, height: 80))))]))
        // 160×80 pixels are 20×5 cells of symbols, centred above the caption.
        #expect(loaded.images.map(\.rect) == [FullPreviewView.fullPreviewImage(in: layout.body).centred(width: 20, height: 5)])
    }

    @Test func wantsAreTheShownPhotoThenTheNextTheWayTheCursorLastMoved() throws {
        var state = Fixture.state()
        let screen = Screen(context: Fixture.context(.colors256))
        let layout = screen.layout(width: 120, height: 40, state: state)
        _ = state.apply(.browsing(.viewResized(rows: layout.pageItems)))
        _ = state.apply(.browsing(.cursorMoved(.position(10))))
        var ui = UIState()
        let box = Self.box(SidePaneView.sidePanePreview(in: try #require(layout.sidePane)))
        #expect(screen.previewWants(state, ui, layout: layout) == [11, 12, 13, 14].map { PreviewRequest(photoID: $0, box: box) })
        ui.travel = -1
        #expect(screen.previewWants(state, ui, layout: layout).map(\.photoID) == [11, 10, 9, 8])
        ui.mode = .grid
        ui.travel = 1
        let gridLayout = screen.layout(width: 120, height: 40, state: state, mode: .grid)
        _ = state.apply(.browsing(.viewResized(rows: gridLayout.pageItems)))
        _ = state.apply(.browsing(.cursorMoved(.position(0))))
        // The sheet shows rows 0–2 (photos 1–15), nearest the cursor first; then the next row, photos 16–20.
        let wants = screen.previewWants(state, ui, layout: gridLayout).map(\.photoID)
        #expect(wants == Array(1...15) + [16, 17, 18, 19, 20])
        // The drawn frame asks for the same.
        #expect(screen.frame(state, ui, width: 120, height: 40).wants.map(\.photoID) == wants)
    }
}
