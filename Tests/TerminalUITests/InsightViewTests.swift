import Foundation
@testable import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickSettings
import PhotoPreviews
import PhotoPickTestSupport
import Testing
@testable import TerminalUI

/// The histogram in the side pane and full screen, the clipping overlay's requests, the cull header's
/// counts and the charts, drawn at several sizes and read back from the canvas.
@Suite struct InsightViewTests {
    /// A preview of a picture half black, a quarter mid grey and a quarter white: 50% crushed, 25% blown.
    static func picture(_ size: PixelSize) -> PreviewImage {
        let count = size.width * size.height
        let pixels = (0..<count).flatMap { index -> [UInt8] in
            let level: UInt8 = index < count / 2 ? 0 : index < count * 3 / 4 ? 128 : 255
            return [level, level, level]
        }
        return PreviewImage(width: size.width, height: size.height, pixels: pixels)
    }

    /// A store holding the side pane's preview of photo 1 at its size, with its histogram, as the loader stores it.
    static func store(_ request: PreviewRequest) -> PreviewStore {
        let store = PreviewStore(clock: Timekeeper(TestClock()))
        let image = picture(request.box)
        store.store(.loaded(image), rendering: Graphics.symbols(.colors256).renderer(request, image, []), histogram: Histogram(image), for: request)
        return store
    }

    @Test(arguments: [(120, 40), (160, 50), (80, 24)])
    func theSidePaneShowsItsPreviewsHistogramWithTheClippedSharesWhereTheRowsLeaveRoom(width: Int, height: Int) throws {
        let layout = Screen(context: Fixture.context(.colors256)).layout(width: width, height: height, state: Fixture.state())
        let pane = try #require(layout.sidePane)
        let request = try #require(PreviewRenderer(graphics: .symbols(.colors256)).box(for: SidePaneView.sidePanePreview(in: pane)).map { PreviewRequest(photoID: 1, box: $0) })
        let (canvas, _) = Fixture.render(Fixture.state(), width: width, height: height, previews: Self.store(request))
        let rows = (0..<height).map { y in (pane.x..<width).map { canvas[$0, y].text }.joined() }
        let shares = rows.firstIndex { $0.contains("▼ 50%") && $0.contains("▲ 25%") }
        // The metadata keeps every row, its last (the tags) too: the histogram comes only where it leaves room.
        #expect(rows.joined().contains("Camera") && rows.joined().contains("Favourite"))
        if height >= 40 {
            let row = try #require(shares, "no clipped shares in \(rows)")
            // Over 1% either end: the warning colour.
            let x = try #require((pane.x..<width).first { canvas[$0, row].text == "▼" })
            #expect(canvas[x, row].style.foreground == Theme(depth: .colors256).warning.foreground)
            // Three levels: full columns at black and white, a shorter one at the middle grey.
            #expect(rows[row - 1].contains("█") && rows[row - 4].contains("R") == false)
        } else if let shares {
            // Luminance alone, on two rows, above the shares.
            #expect(!rows[shares - 2].contains("R") && rows[shares - 1].contains("█"))
        }
    }

    @Test func fullScreenAsksForTheClippingOnlyWithJAndHDrawsItsHistogram() throws {
        var ui = UIState()
        ui.fullPreview = true
        let (_, _, plain) = Fixture.renderWanting(Fixture.state(), ui: ui, width: 120, height: 40)
        #expect(!plain.isEmpty && plain.allSatisfy { !$0.clipping })
        ui.clipping = true
        let (_, _, clipped) = Fixture.renderWanting(Fixture.state(), ui: ui, width: 120, height: 40)
        #expect(clipped.map(\.photoID) == plain.map(\.photoID) && clipped.allSatisfy(\.clipping), "the same photos, with the clipping drawn")
        ui.histogram = true
        // The picture gives up a column on its right for the histogram: a sixel image half covered by a box
        // would be taken off the screen whole.
        let (_, _, beside) = Fixture.renderWanting(Fixture.state(), ui: ui, width: 120, height: 40)
        let first = try #require(beside.first)
        let whole = try #require(clipped.first)
        #expect(first.box.width < whole.box.width && first.clipping)
        let (canvas, _) = Fixture.render(Fixture.state(), ui: ui, width: 120, height: 40, previews: Self.store(first))
        #expect(canvas.contains("Histogram") && canvas.contains("▼ 50%") && canvas.contains("▲ 25%"))
        // Without its preview yet, the box says what it waits for.
        let (waiting, _) = Fixture.render(Fixture.state(), ui: ui, width: 120, height: 40)
        #expect(waiting.contains("waiting for the preview…"))
    }

    /// In kitty (and sixel, iTerm2) an image is sent again only when its content number changes: the
    /// clipping drawn on a preview must change it, or J would leave the plain image on screen.
    @Test func inPixelsThePreviewWithItsClippingIsAnotherImage() throws {
        let graphics = Graphics(mode: .kitty, depth: .direct, cell: PixelSize(width: 8, height: 16), sixelLimit: nil, cursesTerm: nil, inTmux: false, reason: "test")
        var context = Fixture.context(.direct)
        context.graphics = graphics
        let screen = Screen(context: context)
        var ui = UIState()
        ui.fullPreview = true
        var contents: [Bool: Int] = [:]
        for clipping in [false, true] {
            ui.clipping = clipping
            let state = Fixture.state()
            let request = try #require(screen.frame(state, ui, width: 120, height: 40).wants.first)
            let store = PreviewStore(clock: Timekeeper(TestClock()))
            let image = Self.picture(PixelSize(width: 64, height: 48))
            store.store(.loaded(image), rendering: graphics.renderer(request, clipping ? image.showingClipping() : image, []), for: request)
            var drawing = context
            drawing.previews = store
            let canvas = Screen(context: drawing).frame(state, ui, width: 120, height: 40).canvas
            contents[clipping] = try #require(canvas.images.first { $0.photoID == request.photoID }).content
        }
        #expect(contents[false] != contents[true], "\(contents)")
    }

    @Test func theKeysToggleTheHistogramAndTheClippingAndOpenAndCloseTheCharts() {
        var harness = ControllerTests.Harness()
        harness.press(.character("p"), .character("H"), .character("J"))
        #expect(harness.controller.ui.histogram && harness.controller.ui.clipping && harness.controller.ui.fullPreview)
        harness.press(.character("J"))
        #expect(!harness.controller.ui.clipping)
        harness.press(.escape, .character("I"))
        guard case .stats(let cursor)? = harness.controller.ui.overlay else {
            Issue.record("I opened no charts: \(String(describing: harness.controller.ui.overlay))")
            return
        }
        #expect(cursor.stats.summary.photos == 40)
        // The first bar is the first day; l chooses the next, Enter filters to it and closes the charts.
        harness.press(.character("l"), .enter)
        #expect(harness.controller.ui.overlay == nil)
        #expect(harness.state.list.filter.text == "taken:2020-09-15")
        #expect(harness.state.list.count == 1)
        harness.press(.character("I"), .escape)
        #expect(harness.controller.ui.overlay == nil)
    }

    @Test(arguments: [(80, 24), (160, 48)])
    func theChartsDrawTheTimelineAndEverySectionThatFits(width: Int, height: Int) throws {
        var state = Fixture.state()
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags + [PhotoPickKit.Tag(id: 10, name: "Pick", color: nil), PhotoPickKit.Tag(id: 11, name: "Reject", color: nil)])))
        var ui = UIState()
        ui.overlay = .stats(StatsView.Cursor(stats: state.libraryStats(timeZone: TimeZone(identifier: "UTC")!)))
        let (canvas, layout) = Fixture.render(state, ui: ui, width: width, height: height)
        #expect(canvas.contains("40 photos listed · per day, 2020-09-14 to 2020-10-23"))
        #expect(canvas.contains("Cameras") && canvas.contains("FUJIFILM X-T4"))
        #expect(canvas.contains("▸ 2020-09-14 · 1 photo · enter lists them (taken:2020-09-14)"))
        let sections = StatsView.layout(state.libraryStats(timeZone: TimeZone(identifier: "UTC")!), in: layout.body).sections
        // Nothing drawn past the body, no section over another.
        for section in sections {
            #expect(section.rect.maxY <= layout.body.maxY && section.rect.maxX <= layout.body.maxX, "\(section.title) at \(section.rect)")
            #expect(canvas.contains(section.title))
        }
        for (a, b) in zip(sections, sections.dropFirst()) where a.rect.x == b.rect.x { #expect(a.rect.maxY < b.rect.y) }
        if width >= 150 {
            #expect(Set(sections.map(\.rect.x)).count >= 2, "two or three columns at \(width)")
            #expect(sections.count == 8 && sections.allSatisfy { $0.hidden == 0 }, "every section whole: \(sections.map { "\($0.title) \($0.hidden)" })")
        } else {
            #expect(Set(sections.map(\.rect.x)).count == 2)
        }
        // 40 days: a bar a day, each a column of blocks over the same baseline.
        #expect(layout.body.width - StatsView.gutter - 1 >= 40)
    }

    @Test func inCullModeTheHeaderCountsTheMarksOfThePhotosListed() {
        var state = Fixture.state()
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags + [PhotoPickKit.Tag(id: 10, name: "Pick", color: nil), PhotoPickKit.Tag(id: 11, name: "Reject", color: nil)])))
        _ = state.apply(.tags(.markChosen(.flag(.pick))))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        _ = state.apply(.tags(.markChosen(.flag(.reject))))
        var ui = UIState()
        let (browsing, _) = Fixture.render(state, ui: ui, width: 160, height: 30)
        #expect(!browsing.contains("cull 40"))
        ui.culling = true
        let (culling, _) = Fixture.render(state, ui: ui, width: 160, height: 30)
        #expect(culling.lines[0].contains("cull 40: 1 picked · 1 rejected · 0 rated · 0 labelled · 38 untouched ▱▱▱▱▱▱▱▱"), "\(culling.lines[0])")
    }
}
