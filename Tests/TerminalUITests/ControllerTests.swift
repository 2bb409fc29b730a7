import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI
import PhotoPickSettings

/// Keys and clicks in, browser events and UI changes out, against a real state.
@Suite struct ControllerTests {
    /// Feeds keys through the controller into the state, as the app does.
    struct Harness {
        var state = Fixture.state()
        var controller = Controller()
        var width = 120, height = 40
        var layout = ScreenLayout(width: 120, height: 40, showsStrip: false)
        var quit = false
        /// When set, keys get the loupe's geometry from it, as the app gives them.
        var screen: Screen?

        init() {
            _ = state.apply(.browsing(.viewResized(rows: layout.pageItems)))
        }

        mutating func press(_ keys: Key...) {
            for key in keys { send(.key(key)) }
        }

        mutating func type(_ text: String) {
            for character in text { send(.key(.character(character))) }
        }

        mutating func send(_ input: InputEvent) {
            let outcome = controller.handle(input, state: state, layout: layout, loupe: screen?.loupeGeometry(state, controller.ui, layout: layout))
            for event in outcome.events { _ = state.apply(event) }
            quit = quit || outcome.quit
            // As the app does before each frame: the layout follows the mode, and the list its page.
            let next = ScreenLayout(width: width, height: height, showsStrip: false, mode: controller.ui.mode)
            if next.pageItems != layout.pageItems { _ = state.apply(.browsing(.viewResized(rows: next.pageItems))) }
            layout = next
        }

        var currentName: String? { state.currentPhoto?.filename }
    }

    @Test func movingSelectingAndTaggingByNumber() {
        var harness = Harness()
        harness.press(.character("j"), .character("j"), .character("k"))
        #expect(harness.state.list.cursor == 1)
        harness.press(.character(" "), .character(" "))
        #expect(harness.state.selection.count == 2)
        #expect(harness.state.list.cursor == 3)
        harness.press(.character("3"))
        let photos = harness.state.selection.indices.map { harness.state.library[$0] }
        #expect(photos.allSatisfy { $0.tagIDs.contains(3) })
        harness.press(.character("G"))
        #expect(harness.state.list.cursor == 39)
        harness.press(.character("g"), .control("d"))
        #expect(harness.state.list.cursor == 18)
    }

    @Test func escClearsTheVisualRangeThenTheSelectionThenTheFilter() {
        var harness = Harness()
        harness.press(.character(" "), .character("v"), .character("j"), .character("j"))
        #expect(harness.state.selection.count == 4)
        harness.press(.escape)
        #expect(harness.state.visualPositions == nil)
        #expect(harness.state.selection.count == 1)
        harness.press(.character("/"))
        harness.type("img")
        harness.press(.enter)
        harness.press(.escape)
        #expect(harness.state.selection.isEmpty)
        #expect(harness.state.list.filter.text == "img")
        // Then the messages, one by one; then the filter.
        var presses = 0
        while harness.state.messages.current != nil && presses < 10 {
            harness.press(.escape)
            presses += 1
        }
        #expect(harness.state.list.filter.text == "img")
        harness.press(.escape)
        #expect(harness.state.list.filter.isEmpty)
    }

    @Test func theFilterIsLiveAndEscClearsIt() {
        var harness = Harness()
        harness.press(.character("/"))
        harness.type("pra")
        #expect(harness.state.list.count == 1)
        #expect(harness.currentName == "Praha – Karlův most.jpg")
        harness.press(.backspace, .backspace, .backspace)
        #expect(harness.state.list.count == 40)
        harness.type("seoul")
        #expect(harness.state.list.count == 0)
        harness.press(.escape)
        #expect(harness.controller.ui.filterField == nil)
        #expect(harness.state.list.count == 40)
        // While typing, j is text, not a move.
        harness.press(.character("/"))
        harness.type("j")
        #expect(harness.state.list.filter.text == "j")
    }

    @Test func theTagPickerTogglesAFuzzyMatchAndCreatesANewTagForTheSelection() {
        var harness = Harness()
        harness.press(.character(" "), .character(" "), .character("t"))
        harness.type("portf")
        #expect(harness.controller.ui.overlay.flatMap { if case .picker(let p) = $0 { p.entries(in: harness.state).first?.title } else { nil } } == "Portfolio")
        harness.press(.enter)
        #expect(harness.state.selection.indices.allSatisfy { harness.state.library[$0].tagIDs.contains(2) })
        harness.press(.control("u"))
        harness.type("Kyoto")
        // Enter: the new tag goes on both photos at once under a placeholder, recorded with its creation.
        var effects: [BrowserEffect] = []
        for event in harness.controller.handle(.key(.enter), state: harness.state, layout: harness.layout).events {
            effects += harness.state.apply(event)
        }
        let placeholders = Set(harness.state.selection.indices.flatMap { harness.state.library[$0].tagIDs.filter { $0 < 0 } })
        #expect(placeholders.count == 1)
        #expect(effects.contains { if case .recordTagCreation(let tags, let deltas) = $0 { tags.map(\.name) == ["Kyoto"] && deltas.count == 2 } else { false } })
        // The server makes it; the placeholder becomes its id everywhere, with no new edit to send.
        guard let placeholder = placeholders.first else { return }
        effects = harness.state.apply(.tags(.tagCreated(PhotoPickKit.Tag(id: 9, name: "Kyoto", color: nil), placeholderID: placeholder)))
        #expect(harness.state.selection.indices.allSatisfy { harness.state.library[$0].tagIDs.contains(9) && !harness.state.library[$0].tagIDs.contains(placeholder) })
        #expect(!effects.contains { if case .recordTagDeltas = $0 { true } else { false } })
        harness.press(.escape)
        #expect(harness.controller.ui.overlay == nil)
    }

    @Test func theTagFilterPickerChoosesTagsAndSwitchesAnyAndAll() {
        var harness = Harness()
        harness.press(.character("f"), .down, .character(" "))
        #expect(harness.state.list.filter.tags == .any([1]))
        harness.press(.down, .character(" "), .character("a"))
        #expect(harness.state.list.filter.tags == .all([1, 2]))
        #expect(harness.state.list.count == 8)
        harness.press(.character("x"), .escape)
        #expect(harness.state.list.filter.tags == .none)
    }

    @Test func managingTagsRenamesRecoloursAndDeletesAfterConfirmation() {
        var harness = Harness()
        harness.press(.character("T"), .character("r"), .control("u"))
        harness.type("Best")
        var outcome = harness.controller.handle(.key(.enter), state: harness.state, layout: harness.layout)
        #expect(outcome.events.count == 1)
        guard case .tags(.tagRenameRequested(1, "Best"))? = outcome.events.first else { Issue.record("\(outcome.events)"); return }
        harness.press(.character("c"), .control("u"))
        harness.type("red")
        harness.press(.enter)
        guard case .prompt(let prompt)? = harness.controller.ui.overlay else { Issue.record("no prompt"); return }
        #expect(prompt.problem == "Write the colour as #rrggbb, like #e94b60, or leave it empty.")
        harness.press(.control("u"))
        harness.type("#ABC")
        outcome = harness.controller.handle(.key(.enter), state: harness.state, layout: harness.layout)
        guard case .tags(.tagRecolourRequested(1, "#aabbcc"))? = outcome.events.first else { Issue.record("\(outcome.events)"); return }
        harness.press(.character("T"), .character("x"))
        outcome = harness.controller.handle(.key(.character("n")), state: harness.state, layout: harness.layout)
        #expect(outcome.events.isEmpty)
        harness.press(.character("x"))
        outcome = harness.controller.handle(.key(.character("y")), state: harness.state, layout: harness.layout)
        guard case .tags(.tagDeletionRequested(1))? = outcome.events.first else { Issue.record("\(outcome.events)"); return }
    }

    @Test func quitAsksOnlyWhenWorkIsLeftAndCtrlCBehavesLikeQ() {
        var harness = Harness()
        harness.press(.character("q"))
        #expect(harness.quit)
        harness = Harness()
        harness.press(.character("1"))
        #expect(harness.state.unsentTagDeltas == 1)
        harness.press(.control("c"))
        #expect(!harness.quit)
        #expect(harness.controller.ui.overlay == .confirmQuit)
        harness.press(.character("n"))
        #expect(harness.controller.ui.overlay == nil)
        harness.press(.character("q"), .character("y"))
        #expect(harness.quit)
    }

    @Test func belowTheMinimumSizeOnlyQuittingWorks() {
        var harness = Harness()
        (harness.width, harness.height) = (30, 8)
        harness.layout = ScreenLayout(width: 30, height: 8, showsStrip: false)
        harness.press(.character("j"), .character(" "), .character("1"))
        harness.send(.mouse(MouseEvent(.click, x: 1, y: 3)))
        #expect(harness.state.list.cursor == 0 && harness.state.selection.isEmpty && harness.state.unsentTagDeltas == 0)
        harness.press(.character("q"))
        #expect(harness.quit)
    }

    @Test func theQueueCursorFollowsItemsThatWentAway() {
        var harness = Harness()
        let items = Fixture.queueEverything(&harness.state)
        harness.press(.character("D"), .character("G"))
        #expect(harness.controller.ui.overlay == .queue(cursor: 39))
        for id in items.prefix(30).map(\.id) { _ = harness.state.apply(.downloads(.downloadCancelled(id: id))) }
        // The cursor was past the end: x now cancels the last item, not nothing.
        harness.press(.character("x"))
        #expect(harness.state.downloads.items.count == 9)
    }

    @Test func ctrlZSuspendsFromAnyMode() {
        var harness = Harness()
        #expect(harness.controller.handle(.key(.control("z")), state: harness.state, layout: harness.layout).suspend)
        harness.press(.character("/"))
        let outcome = harness.controller.handle(.key(.control("z")), state: harness.state, layout: harness.layout)
        #expect(outcome.suspend && outcome.events.isEmpty)
        #expect(!harness.controller.handle(.key(.character("z")), state: harness.state, layout: harness.layout).suspend)
    }

    @Test func ctrlLRepaintsFromAnyModeAndChangesNothingElse() {
        var harness = Harness()
        let plain = harness.controller.handle(.key(.control("l")), state: harness.state, layout: harness.layout)
        #expect(plain.repaint && plain.events.isEmpty && !plain.quit)
        harness.press(.character("?"))
        let ui = harness.controller.ui
        #expect(harness.controller.handle(.key(.control("l")), state: harness.state, layout: harness.layout).repaint)
        #expect(harness.controller.ui == ui, "the help stays open")
        #expect(!harness.controller.handle(.key(.character("l")), state: harness.state, layout: harness.layout).repaint)
    }

    @Test func theQueuePanelHasItsOwnKeys() {
        var harness = Harness()
        let items = Fixture.queueEverything(&harness.state)
        harness.press(.character("D"), .character("j"), .character("p"))
        #expect(harness.state.downloads.items[1].status == .paused)
        harness.press(.character("p"))
        #expect(harness.state.downloads.items[1].status != .paused)
        harness.press(.character("+"), .character("+"))
        #expect(harness.state.downloads.concurrency == 6)
        harness.press(.character("x"))
        #expect(harness.state.downloads.item(id: items[1].id) == nil || harness.state.downloads.items.count == 39)
        // p is not a browse key, and the panel closes with esc.
        harness.press(.escape, .character("p"))
        #expect(harness.controller.ui.overlay == nil)
    }

    @Test func clicksMoveAndToggleTheMarkAndTheWheelScrolls() {
        var harness = Harness()
        let rows = harness.layout.listRows
        harness.send(.mouse(MouseEvent(.click, x: 20, y: rows.y + 4)))
        #expect(harness.state.list.cursor == 4)
        #expect(harness.state.selection.isEmpty)
        harness.send(.mouse(MouseEvent(.click, x: 1, y: rows.y + 2)))
        #expect(harness.state.list.cursor == 2)
        #expect(harness.state.selection.count == 1)
        harness.send(.mouse(MouseEvent(.wheelDown, x: 20, y: rows.y)))
        #expect(harness.state.list.cursor == 5)
        harness.send(.mouse(MouseEvent(.click, x: 20, y: rows.maxY + 3)))
        #expect(harness.state.list.cursor == 5)
    }

    @Test func aPasteFillsTheFieldInFocusAndIsIgnoredInTheList() {
        var harness = Harness()
        let before = harness.state
        // In the list: nothing changes but a word on the status line.
        harness.send(.paste("iiii 1 a d"))
        let tags = { (state: BrowserState) in (0..<40).map { state.library[$0].tagIDs } }
        #expect(harness.state.selection == before.selection && tags(harness.state) == tags(before))
        #expect(harness.state.list.cursor == before.list.cursor)
        #expect(harness.state.messages.current?.text.hasPrefix("Paste ignored") == true)
        // In the filter: the text, on one line, and the list filters as it does when typed.
        harness.press(.character("/"))
        harness.send(.paste("pra\n"))
        #expect(harness.state.list.filter.text == "pra ")
        #expect(harness.currentName == "Praha – Karlův most.jpg")
        harness.press(.escape)
        // In the tag picker's query.
        harness.press(.character("t"))
        harness.send(.paste("kyo\u{1B}[Ato"))
        guard case .picker(let picker) = harness.controller.ui.overlay else {
            Issue.record("no picker")
            return
        }
        #expect(picker.query.text == "kyo[Ato")
    }

    /// Esc and `/` typed within the Esc delay reach the decoder as Alt-/; nothing binds it, so it is Esc
    /// and then `/`, as typed: the filter opens, and what follows is typed into it, not run as commands.
    @Test func anUnboundAltKeyIsEscThenTheKey() {
        var harness = Harness()
        harness.press(.character("c"))
        #expect(harness.controller.ui.culling)
        for input in harness.controller.inputs(for: .key(.alt("/"))) { harness.send(input) }
        #expect(!harness.controller.ui.culling)
        harness.type("rating>=3")
        #expect(harness.controller.ui.filterField?.text == "rating>=3")
        #expect(harness.state.selection.isEmpty && harness.controller.ui.overlay == nil)
        // Bound in the config, Alt-/ is its own key.
        var keymap = Keymap.standard
        try? keymap.rebind(.help, to: [.alt("/")])
        #expect(Controller(keymap: keymap).inputs(for: .key(.alt("/"))) == [.key(.alt("/"))])
    }

    @Test func controlCodesBecomeKeys() {
        #expect(InputDecoder.controlKey(4) == .control("d"))
        #expect(InputDecoder.controlKey(13) == .enter)
        #expect(InputDecoder.controlKey(127) == .backspace)
        #expect(InputDecoder.controlKey(0) == nil)
    }
}
