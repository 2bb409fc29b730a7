import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI
import PhotoPickSettings

/// Culling on screen: marks in the list, grid, full screen and side pane in colour and monochrome,
/// cull mode's keys and status, the query prompt's bad terms, and burst stacks.
@Suite struct CullViewTests {
    static let markTags = [
        PhotoPickKit.Tag(id: 10, name: "Pick", color: nil), PhotoPickKit.Tag(id: 11, name: "Reject", color: nil),
        PhotoPickKit.Tag(id: 13, name: "3 stars", color: nil), PhotoPickKit.Tag(id: 20, name: "Red", color: nil),
    ]

    /// Photo 1 is picked, three stars, red and a Favourite; photo 2 is rejected and a Favourite and Portfolio.
    static func state() -> BrowserState {
        var photos = Fixture.photos()
        photos[0].tagIDs = [1, 10, 13, 20]
        photos[1].tagIDs = [1, 2, 11]
        var state = Fixture.state(photos)
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags + markTags)))
        return state
    }

    static func color(_ mark: Mark) -> TerminalColor {
        .palette(Theme.nearest256(TagColor(hex: mark.tagColor)!))
    }

    @Test(arguments: ViewTests.cases)
    func marksShowInTheListInColourAndMonochromeAndNotAsChips(width: Int, height: Int, depth: Theme.Depth) throws {
        let (canvas, layout) = Fixture.render(Self.state(), width: width, height: height, depth: depth)
        let mono = depth == .monochrome
        let first = canvas.lines[2], second = canvas.lines[3]
        #expect(first.contains(mono ? "P★★★" : "⚑★★★"), "\(first)")
        #expect(first.contains(mono ? "r" : "●"))
        #expect(second.contains(mono ? "X" : "✕"), "\(second)")
        if layout.columns.chips {
            // The chips are the ordinary tags only: Favourite on photo 1, Favourite and Portfolio on photo 2.
            let chips = (3..<6).map { canvas[$0, 2].text }.joined()
            #expect(chips == (mono ? "F  " : "●  "), "\(chips)")
        }
        if !mono {
            let star = try #require((0..<width).first { canvas[$0, 2].text == "★" })
            #expect(canvas[star, 2].style.foreground == Self.color(.rating(3)))
            let flag = try #require((0..<width).first { canvas[$0, 2].text == "⚑" })
            #expect(canvas[flag, 2].style.foreground == Self.color(.flag(.pick)))
            let label = star + 3  // the column keeps room for the most stars in view: three
            #expect(canvas[label, 2].text == "●" && canvas[label, 2].style.foreground == Self.color(.label(.red)))
        }
        if layout.columns.marks {
            // A column of its own: names stay lined up whatever the marks.
            let marked = (0..<width).first { canvas[$0, 2].text == "R" }
            let unmarked = (0..<width).first { canvas[$0, 4].text == "🌅" }
            #expect(marked != nil && marked == unmarked, "\(String(describing: marked)) \(String(describing: unmarked))")
        }
    }

    /// The gutter between the selection mark and the name is as wide as the rows in view need, and the
    /// selection mark (✓) is a different shape from a tag chip (●).
    @Test func theGutterIsAsWideAsTheMarksInView() throws {
        var photos = Fixture.photos().map { photo in
            var photo = photo
            photo.tagIDs = []
            return photo
        }
        let bare = Fixture.state(photos)
        var selected = bare
        _ = selected.apply(.selection(.selectionToggled))
        let (plain, _) = Fixture.render(selected, width: 120, height: 40)
        #expect(plain.lines[1].hasPrefix("  Name"), "no tags in view: the names follow the mark")
        #expect(plain.lines[2].hasPrefix(" ✓R0001.JPG"), "\(plain.lines[2])")
        // One photo with a chip and a label: one chip slot and one mark slot, each after a space.
        photos[1].tagIDs = [1, 20]
        var state = Fixture.state(photos)
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags + Self.markTags)))
        let (canvas, _) = Fixture.render(state, width: 120, height: 40)
        #expect(canvas.lines[1].hasPrefix("       Name"), "\(canvas.lines[1])")
        #expect(canvas[3, 3].text == "●" && canvas[5, 3].text == "●", "a chip at 3, the red label at 5")
        #expect(canvas[5, 3].style.foreground == Self.color(.label(.red)))
        #expect(canvas.lines[2].hasPrefix("       R0001.JPG") && canvas.lines[3].contains("  ● ● 東京"), "\(canvas.lines[3])")
        // Scrolled to where no row has a mark, the gutter goes again.
        _ = state.apply(.browsing(.cursorMoved(.bottom)))
        let (bottom, _) = Fixture.render(state, width: 120, height: 40)
        #expect(bottom.lines[1].hasPrefix("  Name"), "\(bottom.lines[1])")
    }

    @Test func theSidePaneHasAMarksRowAndTheTagsRowLeavesThemOut() {
        let (canvas, layout) = Fixture.render(Self.state(), width: 120, height: 40)
        let pane = layout.sidePane!
        let text = (0..<40).map { y in (pane.x..<120).map { canvas[$0, y].text }.joined() }
        #expect(text.contains { $0.contains("Marks") && $0.contains("⚑★★★●") && $0.contains("Pick · 3 stars · Red") })
        let tags = text.first { $0.contains("Tags") } ?? ""
        #expect(tags.contains("Favourite") && !tags.contains("Pick") && !tags.contains("Red"))
    }

    @Test(arguments: Fixture.depths)
    func theGridAndFullScreenShowMarks(depth: Theme.Depth) {
        var ui = UIState()
        ui.mode = .grid
        let (grid, _) = Fixture.render(Self.state(), ui: ui, width: 120, height: 40, depth: depth)
        #expect(grid.contains(depth == .monochrome ? "P★★★r #Favourite" : "⚑★★★● ●Favourite"), "\(grid.text)")
        ui.fullPreview = true
        let (full, _) = Fixture.render(Self.state(), ui: ui, width: 120, height: 40, depth: depth)
        #expect(full.lines[38].contains(depth == .monochrome ? "P★★★r" : "⚑★★★●"), "\(full.lines[38])")
        #expect(!full.lines[38].contains("Pick"))
    }

    @Test(arguments: Fixture.sizes)
    func cullModeSaysSoOnTheStatusLine(width: Int, height: Int) {
        var ui = UIState()
        ui.culling = true
        var state = Self.state()
        _ = state.apply(.status(.messageDismissed))
        let (canvas, _) = Fixture.render(state, ui: ui, width: width, height: height)
        let status = canvas.lines[height - 1]
        #expect(status.hasSuffix("cull · 1/40"), "\(status)")
        if width >= 120 { #expect(status.contains("P pick · X reject · 0–5 stars · 6–9 label")) }
    }

    @Test func aTermTheQueryCannotReadIsRedWithItsReason() {
        var state = Self.state()
        _ = state.apply(.browsing(.filterTextChanged("camera:x iso>=lots")))
        var ui = UIState()
        ui.filterField = TextField("camera:x iso>=lots")
        let (canvas, _) = Fixture.render(state, ui: ui, width: 120, height: 40)
        let status = canvas.lines[39]
        #expect(status.hasPrefix("/camera:x iso>=lots"))
        #expect(status.hasSuffix("iso>=lots: “lots” is not a number; write it like iso>=3200"))
        let bad = Theme(depth: .colors256).badTerm
        #expect((10...18).allSatisfy { canvas[$0, 39].style == bad })
        #expect((1...8).allSatisfy { canvas[$0, 39].style != bad })
    }

    @Test func aClosedStackShowsItsCountInTheListAndGrid() {
        var photos = Fixture.photos(12)
        for index in 0..<4 { photos[index].takenAt = Date(timeIntervalSince1970: 1_600_000_000 + Double(index) * 0.5) }
        var state = Fixture.state(photos)
        _ = state.apply(.browsing(.stackingToggled))
        let (list, _) = Fixture.render(state, width: 120, height: 40)
        #expect(list.lines[2].contains("R0001.JPG") && list.lines[2].contains("×4"))
        #expect(list.lines[3].contains("IMG_0005.jpg") || list.lines[3].contains("Praha"))
        var ui = UIState()
        ui.mode = .grid
        let (grid, _) = Fixture.render(state, ui: ui, width: 120, height: 40)
        #expect(grid.contains("×4"))
    }
}

@Suite struct CullControllerTests {
    typealias Harness = ControllerTests.Harness

    private func withMarks() -> Harness {
        var harness = Harness()
        _ = harness.state.apply(.tags(.tagsLoaded(Fixture.tags + CullViewTests.markTags)))
        return harness
    }

    private func marks(_ harness: Harness, _ position: Int) -> PhotoMarks {
        harness.state.marks(at: harness.state.list.libraryIndex(at: position))
    }

    @Test func cullModeMarksWithDigitsAndMovesOnAfterEachMark() {
        var harness = withMarks()
        harness.press(.character("c"))
        #expect(harness.controller.ui.culling)
        harness.press(.character("P"), .character("X"), .character("3"), .character("6"), .character("0"))
        #expect(harness.state.list.cursor == 5, "five marks, five steps")
        #expect(marks(harness, 0).flag == .pick)
        #expect(marks(harness, 1).flag == .reject)
        #expect(marks(harness, 2).rating == 3)
        #expect(marks(harness, 3).label == .red)
        harness.press(.escape)
        #expect(!harness.controller.ui.culling)
        // Out of cull mode the digits toggle tags again, and P marks without moving.
        let hadFavourite = harness.state.library[harness.state.list.currentIndex!].tagIDs.contains(1)
        harness.press(.character("1"))
        #expect(harness.state.library[harness.state.list.currentIndex!].tagIDs.contains(1) != hadFavourite)
        harness.press(.character("P"))
        #expect(harness.state.list.cursor == 5 && marks(harness, 5).flag == .pick)
        harness.press(.character("U"))
        #expect(marks(harness, 5).flag == nil)
        harness.press(.character("c"), .character("c"))
        #expect(!harness.controller.ui.culling, "c leaves it too")
    }

    @Test func bAsksBeforePickingTheSharpestFrameOfEachBurstThenPicksThem() {
        var harness = withMarks()
        // Two bursts of three frames half a second apart, an hour between them.
        let photos = Fixture.photos(6).enumerated().map { offset, photo in
            var photo = photo
            photo.takenAt = Date(timeIntervalSince1970: 1_600_000_000 + Double(offset / 3) * 3600 + Double(offset % 3) * 0.5)
            return photo
        }
        harness.state = Fixture.state(photos)
        _ = harness.state.apply(.tags(.tagsLoaded(Fixture.tags + CullViewTests.markTags)))
        _ = harness.state.apply(.browsing(.viewResized(rows: harness.layout.pageItems)))
        for (id, score) in [1: 3.0, 2: 8, 3: 5, 4: 1, 5: 2, 6: 9] { _ = harness.state.apply(.focus(.focusMeasured(photoID: id, score: score))) }
        harness.press(.character("B"))
        guard case .prompt(let prompt)? = harness.controller.ui.overlay, case .pickSharpest(let plan) = prompt.purpose else {
            Issue.record("B asks first: \(String(describing: harness.controller.ui.overlay))")
            return
        }
        #expect(plan.winners.count == 2)
        var ui = UIState()
        ui.overlay = harness.controller.ui.overlay
        for (width, height) in [(120, 40), (80, 24)] {
            let (canvas, _) = Fixture.render(harness.state, ui: ui, width: width, height: height)
            #expect(canvas.lines.contains { $0.contains("Pick the sharpest frame of 2 bursts?") }, "\(width)×\(height)")
            #expect(canvas.lines.contains { $0.contains("y pick · n leave them") })
        }
        harness.press(.character("n"))
        #expect(harness.controller.ui.overlay == nil)
        #expect((1...6).allSatisfy { harness.state.marks(at: harness.state.library.index(ofID: $0)!).flag == nil }, "n picks nothing")
        harness.press(.character("B"), .character("y"))
        let picks = (1...6).filter { harness.state.marks(at: harness.state.library.index(ofID: $0)!).flag == .pick }
        #expect(picks == [2, 6])
        #expect(harness.state.messages.current?.text == "Picked the sharpest frame of 2 bursts.")
        // All picked: B says so rather than asking.
        harness.press(.character("B"))
        #expect(harness.controller.ui.overlay == nil)
        #expect(harness.state.messages.current?.text == "The sharpest frame of every burst measured is picked already.")
    }

    @Test func cullKeysCanBeRebound() throws {
        var keymap = Keymap.standard
        try keymap.rebind(.rate3, to: [.character("!")])
        try keymap.rebind(.labelRed, to: [.character("r")])  // r is free in the cull context
        var harness = withMarks()
        harness.controller = Controller(keymap: keymap)
        harness.press(.character("c"), .character("!"), .character("r"))
        #expect(marks(harness, 0).rating == 3)
        #expect(marks(harness, 1).label == .red)
        #expect(HelpView.helpLines(for: keymap).contains { $0.keys == "12!45" && $0.summary == "rate 1 to 5 stars" })
        #expect(HelpView.helpLines(for: keymap).contains { $0.keys == "r789" })
    }

    @Test func helpListsTheCullingKeys() {
        let lines = HelpView.helpLines(for: .standard)
        for (keys, summary) in [("P", "pick (flag as a keeper)"), ("X", "reject"), ("U", "unflag: neither pick nor reject"),
                                ("c", "cull mode on / off (also esc)"), ("1–5", "rate 1 to 5 stars"),
                                ("6–9", "label red/yellow/green/blue; again: off"), ("b", "stack bursts / show every photo"),
                                ("S", "saved searches (config [searches])")] {
            #expect(lines.contains(HelpView.HelpLine(keys: keys, summary: summary)), "\(keys)")
        }
    }
}

@Suite struct SavedSearchTests {
    @Test func savedSearchesAreListedAndOneIsChosenByItsNumber() {
        var harness = ControllerTests.Harness()
        var state = BrowserState(
            downloadDirectory: URL(fileURLWithPath: "/tmp"),
            savedSearches: [SavedSearch(name: "tokyo", query: "東京"), SavedSearch(name: "hostile", query: "red alert")]
        )
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags)))
        _ = state.apply(.catalogue(.photosArrived(Fixture.photos(), nextCursor: nil)))
        harness.state = state
        harness.press(.character("S"))
        let (canvas, _) = Fixture.render(harness.state, ui: harness.controller.ui, width: 80, height: 24)
        #expect(canvas.contains("Saved searches"))
        #expect(canvas.contains("1  tokyo") && canvas.contains("2  hostile"))
        harness.press(.character("2"))
        #expect(harness.controller.ui.overlay == nil)
        #expect(harness.state.list.filter.text == "red alert")
        #expect(harness.state.list.count == 1)
        // Enter on the cursor's entry works too, and the active one is marked.
        harness.press(.character("S"), .down, .up, .enter)
        #expect(harness.state.list.filter.text == "東京")
    }
}
