import Foundation
@testable import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickTestSupport
import PhotoPreviews
import Testing
@testable import TerminalUI
import PhotoPickFormats

/// The loupe: what `z` opens and where, how the keys pan it (every photo of compare together), how it is
/// drawn at 100% while the original comes, once it is here, and when it cannot be had.
@Suite struct LoupeViewTests {
    typealias Harness = ControllerTests.Harness

    /// The originals: 1600 × 1200, a light red left of x = 800 and dark blue right of it (light and dark
    /// in monochrome too).
    static let size = PixelSize(width: 1600, height: 1200)

    static func picture(_ size: PixelSize) -> PreviewImage {
        let row = [UInt8](repeating: 0, count: 0) + (0..<size.width).lazy.flatMap { x -> [UInt8] in x < size.width / 2 ? [250, 120, 120] : [20, 20, 90] }
        // Row by row: joining 1,200 arrays of arrays took two seconds unoptimised.
        var pixels: [UInt8] = []
        pixels.reserveCapacity(row.count * size.height)
        for _ in 0..<size.height { pixels.append(contentsOf: row) }
        return PreviewImage(width: size.width, height: size.height, pixels: pixels)
    }

    static let original = picture(size).jpeg(quality: 95)!
    /// The rendition standing in: the same picture at a quarter of the size.
    static let standIn = picture(PixelSize(width: 400, height: 300)).jpeg(quality: 95)!

    static func photos() -> [Photo] {
        CompareTests.burstPhotos().map { photo in
            var photo = photo
            photo.width = size.width
            photo.height = size.height
            return photo
        }
    }

    struct Missing: UserFacingError {
        var userMessage: String { "the server has no original of this photo (404)" }
    }

    /// A loader over the pictures in memory, rendering for `graphics`; the original waits for `gate`,
    /// or fails with `Missing`.
    static func loader(_ graphics: Graphics, gate: Gate? = nil, missing: Bool = false) -> LoupeLoader {
        LoupeLoader(disk: nil, originals: nil, render: graphics.renderer, clock: Timekeeper(TestClock())) { _, _ async throws(APIError) in
            FetchedVariant(bytes: standIn, etag: nil)
        } fetchOriginal: { _, _ in
            await gate?.wait()
            if missing { throw Missing() }
            return original
        }
    }

    /// Draws frames, handing the loader what each wants, until `done` holds for the store.
    static func settle(
        _ screen: Screen, _ state: BrowserState, _ ui: UIState, width: Int, height: Int, loader: LoupeLoader,
        until done: (LoupeStore, [LoupeRequest]) -> Bool
    ) async throws -> Frame {
        // The views a frame wants depend on the state, the UI state and the layout alone, not on the store.
        let wants = screen.frame(state, ui, width: width, height: height).loupeWants
        await loader.want(wants)
        // Looked at again at each of the loader's updates, never on a timer.
        if !done(loader.store, wants) {
            for await _ in loader.updates where done(loader.store, wants) { break }
        }
        if !done(loader.store, wants) { Issue.record("the loupe stopped before it settled") }
        return screen.frame(state, ui, width: width, height: height)
    }

    static func showsOriginal(_ store: LoupeStore, _ wants: [LoupeRequest]) -> Bool {
        !wants.isEmpty && wants.allSatisfy { want in
            store.frame(photoID: want.photo.id).map { $0.request == want && $0.source == .original } ?? false
        }
    }

    static func screen(_ depth: Theme.Depth, loupes: LoupeStore?) -> Screen {
        var context = Fixture.context(depth)
        context.graphics = .symbols(depth)
        context.loupes = loupes
        return Screen(context: context)
    }

    static func state() -> BrowserState {
        var state = Fixture.state(photos())
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags + CullViewTests.markTags)))
        _ = state.apply(.browsing(.viewResized(rows: 30)))
        return state
    }

    /// How red and how blue the cell looks: its upper half's colour (libchafa draws flat areas as one).
    static func redness(_ cell: Cell) -> Int? {
        let colour = cell.text == " " ? cell.style.background : cell.style.foreground
        guard case .rgb(let r, _, let b) = colour else { return nil }
        return Int(r) - Int(b)
    }

    // MARK: Keys

    @Test func zOpensAtTheSharpestPointOfThePreviewShownAndTheArrowsPanByAThirdUpToTheEdges() {
        var harness = Harness()
        harness.state = Self.state()
        let previews = PreviewStore(clock: Timekeeper(TestClock()))
        var context = Fixture.context(.direct)
        context.previews = previews
        harness.screen = Screen(context: context)
        harness.press(.character("p"))
        // The preview on screen: flat grey, with detail only in the tile around (0.25, 0.25).
        let area = FullPreviewView.fullPreviewImage(in: harness.layout.body)
        let request = harness.screen!.previewRequest(photoID: 1, in: area)!
        let fitted = PixelSize(width: min(request.box.width, request.box.height * 4 / 3), height: min(request.box.height, request.box.width * 3 / 4))
        let detailed = PreviewImage(width: fitted.width, height: fitted.height, pixels: (0..<fitted.height).flatMap { y in
            (0..<fitted.width).flatMap { x -> [UInt8] in
                let inPatch = (0.18...0.32).contains(Double(x) / Double(fitted.width)) && (0.18...0.32).contains(Double(y) / Double(fitted.height))
                let value: UInt8 = inPatch && (x / 2 + y / 2) % 2 == 0 ? 230 : 110
                return [value, value, value]
            }
        })
        previews.store(.loaded(detailed), for: request)
        harness.press(.character("z"))
        let opened = try! #require(harness.controller.ui.zoom)
        // The view is the area's pixels (8 × 16 a cell in symbols) of the 1600 × 1200 original: a third of
        // its width is a fifth of the picture's, and the view stops at the edge. Centred on the sharp
        // tile at (0.25, 0.25) it would cross the left edge, so it opens against it.
        let viewport = request.box, third = Double(viewport.width / 3) / 1600
        let leftmost = Double(viewport.width) / 2 / 1600
        #expect(abs(opened.centre.x - max(0.25, leftmost)) < 0.01 && abs(opened.centre.y - 0.25) < 0.01, "\(opened.centre)")
        harness.press(.character("l"))
        #expect(abs(harness.controller.ui.zoom!.centre.x - (opened.centre.x + third)) < 1e-9)
        harness.press(.character("h"), .character("h"), .character("h"), .left)
        #expect(abs(harness.controller.ui.zoom!.centre.x - leftmost) < 1e-9, "stops where the view meets the left edge")
        harness.press(.right)
        #expect(abs(harness.controller.ui.zoom!.centre.x - (leftmost + third)) < 1e-9, "one key back, however often it was pressed")
        // Down and up by a third of the view's height, j and the arrow alike, stopping at the bottom edge.
        let thirdY = Double(viewport.height / 3) / 1200, lowest = 1 - Double(viewport.height) / 2 / 1200
        harness.press(.character("j"))
        #expect(abs(harness.controller.ui.zoom!.centre.y - min(opened.centre.y + thirdY, lowest)) < 1e-9)
        harness.press(.down)
        let down = harness.controller.ui.zoom!.centre.y
        #expect(abs(down - min(opened.centre.y + 2 * thirdY, lowest)) < 1e-9)
        harness.press(.character("k"))
        #expect(abs(harness.controller.ui.zoom!.centre.y - (down - thirdY)) < 1e-9)
        harness.press(.up)
        #expect(abs(harness.controller.ui.zoom!.centre.y - (down - 2 * thirdY)) < 1e-9)
        #expect(harness.state.list.cursor == 0, "j pans; it does not move to the next photo")
        harness.press(.character("P"))
        #expect(harness.state.marks(at: 0).flag == .pick, "the mark keys mark the photo shown")
        harness.press(.character("z"))
        #expect(harness.controller.ui.zoom == nil && harness.controller.ui.fullPreview, "z returns to the full screen")
        harness.press(.character("z"), .escape)
        #expect(harness.controller.ui.zoom == nil && harness.controller.ui.fullPreview, "Esc too")
    }

    @Test func zInCompareZoomsEveryFrameTheKeysPanThemTogetherAndMarksGoOnTheActiveOne() {
        var harness = CompareTests.harness()
        harness.state = Self.state()
        harness.screen = Self.screen(.direct, loupes: nil)
        harness.press(.character("j"), .character("C"))
        #expect(harness.controller.ui.compare?.activeID == 2)
        harness.press(.character("z"))
        let opened = try! #require(harness.controller.ui.zoom)
        #expect(opened.centre == .centre, "no preview on screen: the centre")
        harness.press(.character("l"))
        #expect(harness.controller.ui.compare?.activeID == 2, "l pans, the active frame stays")
        #expect(harness.controller.ui.zoom!.centre.x > 0.5)
        harness.press(.character("X"))
        #expect(harness.state.marks(at: harness.state.library.index(ofID: 2)!).flag == .reject)
        harness.press(.escape)
        #expect(harness.controller.ui.zoom == nil && harness.controller.ui.compare?.activeID == 2, "Esc leaves the loupe for compare")
        harness.press(.character("z"), .character("z"), .escape)
        #expect(harness.controller.ui.compare == nil)
    }

    /// Until the loupe's first frame the picture's size is the photo's own, turned as the preview on screen
    /// is (EXIF orientations 5 to 8); a photo with no size is not clamped to a made-up one.
    @Test func beforeItsFirstFrameThePictureIsThePhotosSizeTurnedAsThePreviewShowsIt() {
        let previews = PreviewStore(clock: Timekeeper(TestClock()))
        var context = Fixture.context(.direct)
        context.previews = previews
        let screen = Screen(context: context)
        var ui = UIState()
        ui.fullPreview = true
        var state = Self.state()
        let layout = screen.frame(state, ui, width: 120, height: 40).layout
        #expect(screen.loupeGeometry(state, ui, layout: layout)?.imageSize == Self.size, "no preview yet: as stored")
        let request = screen.previewRequest(photoID: 1, in: FullPreviewView.fullPreviewImage(in: layout.body))!
        previews.store(.loaded(Self.picture(PixelSize(width: 300, height: 400))), for: request)
        #expect(screen.loupeGeometry(state, ui, layout: layout)?.imageSize == PixelSize(width: 1200, height: 1600), "turned upright")
        state = Fixture.state(Self.photos().map { photo in
            var photo = photo
            photo.width = nil
            photo.height = nil
            return photo
        })
        _ = state.apply(.browsing(.viewResized(rows: 30)))
        let unknown = screen.loupeGeometry(state, ui, layout: layout)
        #expect(unknown?.imageSize == PixelSize(width: 0, height: 0))
        var zoom = UIState.Zoom(centre: UnitPoint(x: 0.2, y: 0.3))
        zoom.clamp(unknown!)
        #expect(zoom.centre == UnitPoint(x: 0.2, y: 0.3), "the sharpest point kept until the picture's size is known")
    }

    @Test func zInTheListDoesNothing() {
        var harness = Harness()
        harness.state = Self.state()
        harness.screen = Self.screen(.direct, loupes: nil)
        harness.press(.character("z"))
        #expect(harness.controller.ui.zoom == nil)
    }

    // MARK: Views

    @Test(arguments: [Theme.Depth.direct, .monochrome])
    func theOriginalIsDrawnAt100PercentAtEverySizeAndAPanMovesIt(depth: Theme.Depth) async throws {
        let state = Self.state()
        for (width, height) in Fixture.sizes {
            let loader = Self.loader(.symbols(depth))
            let screen = Self.screen(depth, loupes: loader.store)
            var ui = UIState()
            ui.fullPreview = true
            ui.zoom = UIState.Zoom(centre: .centre)
            let frame = try await Self.settle(screen, state, ui, width: width, height: height, loader: loader, until: Self.showsOriginal)
            guard !frame.layout.tooSmall else { continue }
            let area = FullPreviewView.fullPreviewImage(in: frame.layout.body)
            let shown = try #require(loader.store.frame(photoID: 1))
            #expect(shown.size == shown.request.box, "\(width)×\(height): one image pixel per screen pixel, the view fills its box")
            #expect(shown.view.width == area.width * 8 && shown.view.height == shown.request.box.height, "symbols sample 8 pixels a cell")
            #expect(shown.view.x == 800 - shown.view.width / 2, "centred on the middle of the picture")
            let caption = frame.canvas.lines[area.maxY]
            if width >= 80 {
                #expect(caption.contains("100% · original · \(shown.view.x),\(shown.view.y) of 1600×1200"), "\(caption)")
                #expect(frame.canvas.lines[height - 1].contains("100% · 1/6"))
            }
            // The red and blue halves meet in the middle of the view, at cell (800 - x) / 8.
            let edge = area.x + (800 - shown.view.x) / 8, row = area.y + area.height / 2
            try expectEdge(frame.canvas, at: edge, row: row, depth: depth, "\(width)×\(height)")
            // A pan right by a third moves the edge left by a third of the view.
            var panned = ui
            let geometry = screen.loupeGeometry(state, ui, layout: frame.layout)!
            panned.zoom!.pan(.right, geometry)
            let after = try await Self.settle(screen, state, panned, width: width, height: height, loader: loader, until: Self.showsOriginal)
            let moved = try #require(loader.store.frame(photoID: 1))
            #expect(moved.view.x == shown.view.x + shown.view.width / 3, "\(width)×\(height)")
            try expectEdge(after.canvas, at: area.x + (800 - moved.view.x) / 8, row: row, depth: depth, "\(width)×\(height) panned")
            await loader.stop()
        }
    }

    private func expectEdge(_ canvas: Canvas, at edge: Int, row: Int, depth: Theme.Depth, _ label: String) throws {
        let left = canvas[edge - 2, row], right = canvas[edge + 1, row]
        if depth == .monochrome {
            #expect(left != right, "\(label): bright left of the edge, dark right of it: \(left) \(right)")
        } else {
            #expect(try #require(Self.redness(left)) > 90 && (try #require(Self.redness(right))) < -30, "\(label): \(left) \(right)")
        }
    }

    @Test func theRenditionStandsInWithProgressUntilTheOriginalArrives() async throws {
        let gate = Gate()
        let loader = Self.loader(.symbols(.direct), gate: gate)
        let screen = Self.screen(.direct, loupes: loader.store)
        let state = Self.state()
        var ui = UIState()
        ui.fullPreview = true
        ui.zoom = UIState.Zoom(centre: .centre)
        let waiting = try await Self.settle(screen, state, ui, width: 120, height: 40, loader: loader) { store, _ in
            store.frame(photoID: 1)?.source == .standIn(.a4)
        }
        let area = FullPreviewView.fullPreviewImage(in: waiting.layout.body)
        // Until the download reports, the photo's own size is the whole.
        let size = Figures.bytes(state.library.photo(at: 0).bytes)
        #expect(waiting.canvas.lines[area.maxY].contains("100% · a4 stands in · original 0% of \(size)"), "\(waiting.canvas.lines[area.maxY])")
        // The rendition, enlarged to the original's scale, shows the same part: the edge in the same place.
        let standIn = try #require(loader.store.frame(photoID: 1))
        #expect(standIn.imageSize == Self.size && standIn.size == standIn.request.box)
        try expectEdge(waiting.canvas, at: area.x + (800 - standIn.view.x) / 8, row: area.y + area.height / 2, depth: .direct, "stand-in")
        await gate.open()
        let arrived = try await Self.settle(screen, state, ui, width: 120, height: 40, loader: loader, until: Self.showsOriginal)
        #expect(arrived.canvas.lines[area.maxY].contains("100% · original"))
        await loader.stop()
    }

    @Test(arguments: [Theme.Depth.direct, .monochrome])
    func aMissingOriginalLeavesTheStandInWithTheReason(depth: Theme.Depth) async throws {
        let loader = Self.loader(.symbols(depth), missing: true)
        let screen = Self.screen(depth, loupes: loader.store)
        let state = Self.state()
        var ui = UIState()
        ui.fullPreview = true
        ui.zoom = UIState.Zoom(centre: .centre)
        let frame = try await Self.settle(screen, state, ui, width: 120, height: 40, loader: loader) { store, _ in
            if case .failed = store.status(photoID: 1) { store.frame(photoID: 1) != nil } else { false }
        }
        let area = FullPreviewView.fullPreviewImage(in: frame.layout.body)
        let caption = frame.canvas.lines[area.maxY]
        #expect(caption.contains("100% · a4 stands in · original unavailable: the server has no original of this photo (404)"), "\(caption)")
        #expect(loader.store.frame(photoID: 1)?.source == .standIn(.a4), "the stand-in stays")
        let noteX = caption.range(of: "100% · a4").map { caption.distance(from: caption.startIndex, to: $0.lowerBound) } ?? 0
        #expect(frame.canvas[noteX, area.maxY].style == Theme(depth: depth).warning, "said as a warning")
        await loader.stop()
    }

    @Test(arguments: [Theme.Depth.direct, .monochrome])
    func compareAtOneHundredPercentShowsEveryFrameAroundTheSamePointAndPansThemTogether(depth: Theme.Depth) async throws {
        let state = Self.state()
        for (width, height) in Fixture.sizes {
            let loader = Self.loader(.symbols(depth))
            let screen = Self.screen(depth, loupes: loader.store)
            var ui = UIState()
            ui.compare = UIState.Compare(photoIDs: [1, 2, 3], active: 1)
            // Centred on the picture's red-blue edge, so every pane shows it in its middle.
            ui.zoom = UIState.Zoom(centre: UnitPoint(x: 0.5, y: 0.6))
            let frame = try await Self.settle(screen, state, ui, width: width, height: height, loader: loader, until: Self.showsOriginal)
            guard !frame.layout.tooSmall else { await loader.stop(); continue }
            let label = "\(width)×\(height) \(depth)"
            #expect(frame.loupeWants.map(\.photo.id) == [2, 1, 3], "\(label): the active frame first")
            #expect(frame.wants.isEmpty, "\(label): no fitted previews under the loupe")
            let targets = screen.loupeTargets(state, ui, layout: frame.layout)
            #expect(Set(targets.map(\.photo.id)) == [1, 2, 3], "\(label)")
            let views = [1, 2, 3].compactMap { loader.store.frame(photoID: $0)?.view }
            #expect(views.count == 3 && Set(views.map { "\($0.x),\($0.y),\($0.width)" }).count == 1, "\(label): \(views)")
            for (photo, area) in targets {
                let view = try #require(loader.store.frame(photoID: photo.id)?.view)
                #expect(view.width == area.width * 8, "\(label): one pixel a sample")
                try expectEdge(frame.canvas, at: area.x + (800 - view.x) / 8, row: area.y + area.height / 2, depth: depth, "\(label) photo \(photo.id)")
            }
            if width >= 80 {
                let text = frame.canvas.lines.joined(separator: "\n")
                #expect(text.contains("▶2/3") && text.contains("100%"), "\(label)")
                #expect(frame.canvas.lines[height - 1].contains("100% · compare · 2/3"), "\(label)")
            }
            // A pan moves every frame by the same third, and each shows the edge that much further left.
            var panned = ui
            panned.zoom!.pan(.right, try #require(screen.loupeGeometry(state, ui, layout: frame.layout)))
            let after = try await Self.settle(screen, state, panned, width: width, height: height, loader: loader, until: Self.showsOriginal)
            for (photo, area) in targets {
                let moved = try #require(loader.store.frame(photoID: photo.id)?.view)
                #expect(moved.x == views[0].x + views[0].width / 3, "\(label) photo \(photo.id): \(moved.x) after \(views[0].x)")
                if (800 - moved.x) / 8 >= 2 {
                    try expectEdge(after.canvas, at: area.x + (800 - moved.x) / 8, row: area.y + area.height / 2, depth: depth, "\(label) photo \(photo.id) panned")
                }
            }
            await loader.stop()
        }
    }
}
