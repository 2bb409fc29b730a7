import Foundation
@testable import PhotoBrowser
import PhotoImaging
import PhotoPreviews
import PhotoPickKit
import PhotoPickTestSupport
import Testing
@testable import TerminalUI
import PhotoPickSettings

/// The one-way frame, messages that name the live keys, and the terminals that are refused.
@Suite struct FrameTests {
    @Test func aMessageNamesTheKeyBoundToItsRemedyNow() throws {
        var state = Fixture.state()
        _ = state.apply(.catalogue(.photosFailed("The server did not answer.")))
        // The state says what can be done, not which key does it.
        #expect(state.messages.current?.text == "Loading stopped after \(state.library.count) photos: The server did not answer.")
        #expect(state.messages.current?.remedy == .resumeLoading)
        var context = Fixture.context(.colors256)
        var canvas = Canvas(width: 120, height: 40)
        Screen(context: context).render(state, UIState(), into: &canvas)
        #expect(canvas.contains("The server did not answer. Press R to resume loading."))
        try context.keymap.rebind(.reload, to: [.function(5)])
        canvas = Canvas(width: 120, height: 40)
        Screen(context: context).render(state, UIState(), into: &canvas)
        #expect(canvas.contains("The server did not answer. Press F5 to resume loading."))
        #expect(!canvas.contains("Press R"))
    }

    @Test func theOtherRemediesNameTheirKeysToo() throws {
        var keys = Keymap.standard
        let pick = StatusMessage(id: 1, severity: .warning, text: "No tag 7: there are 3 tags.", remedy: .pickTag)
        let retry = StatusMessage(id: 2, severity: .error, text: "Download of a.jpg failed: disk full", remedy: .retryDownload)
        #expect(StatusLineView.text(of: pick, keys: keys) == "No tag 7: there are 3 tags. Press t to pick a tag or create one.")
        #expect(StatusLineView.text(of: retry, keys: keys) == "Download of a.jpg failed: disk full. Press r in the queue (D) to retry.")
        try keys.rebind(.queuePanel, to: [.function(2)])
        try keys.rebind(.tagPicker, to: [.control("t")])
        #expect(StatusLineView.text(of: pick, keys: keys) == "No tag 7: there are 3 tags. Press ctrl-t to pick a tag or create one.")
        #expect(StatusLineView.text(of: retry, keys: keys) == "Download of a.jpg failed: disk full. Press r in the queue (F2) to retry.")
    }

    @Test func aFrameComputesItsLayoutOnceAndDrawingChangesNothing() {
        var state = Fixture.state()
        let screen = Screen(context: Fixture.context(.colors256))
        var ui = UIState()
        ui.mode = .grid
        let layout = screen.layout(width: 80, height: 24, state: state, mode: .grid)
        _ = state.apply(.browsing(.viewResized(rows: layout.pageItems)))
        let before = state
        let frame = screen.frame(state, ui, width: 80, height: 24)
        #expect(frame.layout == layout)
        // The same inputs give the same frame: nothing was kept between the two.
        let again = screen.frame(state, ui, width: 80, height: 24)
        #expect(again.canvas == frame.canvas)
        #expect(again.wants == frame.wants)
        #expect(state.list.cursor == before.list.cursor && state.list.pageHeight == before.list.pageHeight)
    }

    @Test func theCanvasKnowsWhichCellsShowAnImage() throws {
        var state = Fixture.state()
        let store = PreviewStore(clock: Timekeeper(TestClock()))
        var context = Fixture.context(.colors256)
        context.previews = store
        let screen = Screen(context: context)
        let layout = screen.layout(width: 120, height: 40, state: state)
        _ = state.apply(.browsing(.viewResized(rows: layout.pageItems)))
        let area = SidePaneView.sidePanePreview(in: try #require(layout.sidePane))
        let photo = try #require(state.currentPhoto)
        let request = try #require(screen.previewRequest(photoID: photo.id, in: area))
        #expect(screen.frame(state, UIState(), width: 120, height: 40).canvas.images.isEmpty)
        let image = PreviewImage(width: 320, height: 240, pixels: Array(repeating: 90, count: 320 * 240 * 3))
        store.store(.loaded(image), rendering: Graphics.symbols(.colors256).renderer(request, image, []), for: request)
        let frame = screen.frame(state, UIState(), width: 120, height: 40)
        let placement = try #require(frame.canvas.images.first)
        #expect(frame.canvas.images.count == 1)
        #expect(placement.photoID == request.photoID && placement.box == request.box)
        // 320×240 pixels are 40 columns of 8 and 15 rows of 16, centred in the pane's preview area, in grey.
        #expect(placement.rect == area.centred(width: 40, height: 15))
        for y in placement.rect.y..<placement.rect.maxY {
            for x in placement.rect.x..<placement.rect.maxX { #expect([.palette(239), .palette(240), .palette(59)].contains(frame.canvas[x, y].style.background)) }
        }
    }

    @Test func aTerminalThatCannotMoveTheCursorIsRefusedWithOneLine() {
        #expect(throws: Never.self) { try TerminalDriver.checkCursorAddressing(term: "xterm-256color") }
        let refusals: [(String?, String)] = [
            ("dumb", "TERM=dumb cannot move the cursor"),
            ("no-such-terminal-9", "TERM=no-such-terminal-9 is not a terminal type this system knows"),
            (nil, "TERM is not set"),
            ("", "TERM is not set"),
            ("x\u{1b}[2Jterm", "TERM=x"),
        ]
        for (term, start) in refusals {
            do {
                try TerminalDriver.checkCursorAddressing(term: term)
                Issue.record("accepted TERM=\(term ?? "nil")")
            } catch {
                #expect(error.description.hasPrefix(start), "\(error.description)")
                #expect(!error.description.contains("\n") && !error.description.contains("\u{1b}"))
            }
        }
    }
}
