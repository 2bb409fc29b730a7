import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

/// `E`, `Ctrl-E`, `#`, `y` and `Y` from the keyboard: what each shows, and what it sends.
@Suite struct EditControllerTests {
    typealias Harness = ControllerTests.Harness

    private func photo(_ harness: Harness, _ id: Int) -> Photo {
        harness.state.library.photo(at: harness.state.library.index(ofID: id)!)
    }

    @Test func theFormShowsTheValuesAndSendsOnlyTheFieldsChanged() throws {
        var harness = Harness()
        let id = try #require(harness.state.currentPhoto?.id)
        let before = photo(harness, id)
        harness.press(.character("E"))
        guard case .editForm(let form)? = harness.controller.ui.overlay else {
            Issue.record("E opened no form")
            return
        }
        #expect(form.values[.filename]?.text == before.filename)
        harness.type("Harbour at dusk")
        harness.press(.tab, .tab, .tab, .control("u"))
        harness.type("+1h")
        harness.press(.enter)
        #expect(harness.controller.ui.overlay == nil)
        let after = photo(harness, id)
        #expect(after.title == "Harbour at dusk")
        #expect(after.filename == before.filename)
        #expect(after.takenAt == before.takenAt?.addingTimeInterval(3_600))
        #expect(harness.state.unsentPhotoEdits == 2)
        harness.press(.character("u"))
        #expect(photo(harness, id).title == nil)
        #expect(photo(harness, id).takenAt == before.takenAt)
    }

    @Test func aSelectionLeavesUntouchedFieldsAloneAndRefusesOneNameForAll() {
        var harness = Harness()
        harness.press(.character(" "), .character(" "), .character(" "))
        harness.press(.character("E"))
        guard case .editForm(let form)? = harness.controller.ui.overlay else {
            Issue.record("E opened no form")
            return
        }
        #expect(form.photoIDs.count == 3)
        #expect(form.values[.filename]?.text == "", "three names differ: the field opens empty")
        harness.press(.tab, .tab)
        harness.type("same.jpg")
        harness.press(.enter)
        guard case .editForm(let refused)? = harness.controller.ui.overlay else {
            Issue.record("the form closed on a bad name")
            return
        }
        #expect(refused.problem?.contains("template") == true)
        harness.press(.control("u"))
        harness.type("{n:02}_{filename}")
        harness.press(.enter)
        #expect(harness.controller.ui.overlay == nil)
        let names = harness.state.selection.indices.map { harness.state.library.photo(at: $0).filename }.sorted()
        #expect(names.count == 3)
        #expect(names.allSatisfy { $0.hasPrefix("0") }, "\(names)")
        #expect(harness.state.selection.indices.allSatisfy { harness.state.library.photo(at: $0).title == nil }, "titles left alone")
    }

    @Test func theCaptureTimeFieldPreviewsTheFirstAndLastAndExplainsABadShift() throws {
        var harness = Harness()
        harness.press(.character("a"), .character("E"), .backTab)
        harness.type("+1d")
        guard case .editForm(let form)? = harness.controller.ui.overlay else {
            Issue.record("no form")
            return
        }
        let preview = try #require(form.timePreview())
        #expect(preview.count == 2)
        #expect(preview.allSatisfy { $0.after.timeIntervalSince($0.before) == 86_400 })
        harness.press(.backspace, .backspace, .backspace)
        harness.type("1h")
        harness.press(.enter)
        guard case .editForm(let refused)? = harness.controller.ui.overlay else {
            Issue.record("the form closed on a bad shift")
            return
        }
        #expect(refused.problem?.contains("needs a sign") == true)
        harness.press(.escape)
        #expect(harness.state.unsentPhotoEdits == 0)
    }

    @Test func purgeAsksForTheNumberAndSendsOnlyWhenItIsTyped() {
        var harness = Harness()
        harness.press(.character("#"))
        #expect(harness.controller.ui.overlay == nil, "no rejects: nothing to ask")
        harness.press(.character("X"), .character("j"), .character("X"))
        harness.press(.character("#"))
        guard case .prompt(let prompt)? = harness.controller.ui.overlay, case .purge(let ids, _) = prompt.purpose else {
            Issue.record("# did not ask")
            return
        }
        #expect(ids.count == 2)
        harness.type("3")
        harness.press(.enter)
        #expect(harness.state.purge == nil)
        harness.press(.backspace)
        harness.type("2")
        harness.press(.enter)
        #expect(harness.controller.ui.overlay == nil)
        #expect(harness.state.purge?.total == 2)
    }

    @Test func copyKeysAskForTheIdAndTheMenuOffersTheAPIURLWithoutAKey() {
        let state = Fixture.state(apiURL: URL(string: "https://api.example.com/api/v1"))
        var controller = Controller()
        let layout = ScreenLayout(width: 120, height: 40, showsStrip: false)
        let id = state.currentPhoto!.id
        #expect(controller.handle(.key(.character("y")), state: state, layout: layout).clipboard == String(id))
        _ = controller.handle(.key(.character("Y")), state: state, layout: layout)
        for _ in 0..<2 { _ = controller.handle(.key(.down), state: state, layout: layout) }
        #expect(controller.handle(.key(.enter), state: state, layout: layout).clipboard == "https://api.example.com/api/v1/photos/\(id)")
    }

    @Test func theClipboardGoesStraightOrThroughTmuxOrSaysHowToEnableIt() {
        let plain = Clipboard.choose(environment: [:]) { _ in nil }
        #expect(plain.sequence("42") == Array("\u{1B}]52;c;NDI=\u{07}".utf8))
        let tmuxOn = Clipboard.choose(environment: ["TMUX": "/tmp/t,1,0"]) { $0 == "set-clipboard" ? "on" : nil }
        #expect(tmuxOn.route == .direct)
        let passthrough = Clipboard.choose(environment: ["TMUX": "x"]) { $0 == "allow-passthrough" ? "on" : "external" }
        #expect(passthrough.sequence("42") == Array("\u{1B}Ptmux;\u{1B}\u{1B}]52;c;NDI=\u{07}\u{1B}\\".utf8))
        let refused = Clipboard.choose(environment: ["TMUX": "x"]) { _ in "external" }
        #expect(refused.sequence("42") == nil)
        guard case .refused(let advice) = refused.route else {
            Issue.record("tmux without set-clipboard was not refused")
            return
        }
        #expect(advice.contains("set -g set-clipboard on"))
        #expect(Clipboard.choose(environment: ["XTERM_VERSION": "XTerm(379)"]) { _ in nil }.caveat?.contains("disallowedWindowOps") == true)
    }

    @Test func theFormFitsEverySizeWithItsFieldsAndHint() {
        var harness = Harness()
        harness.press(.character("E"))
        for (width, height) in Fixture.sizes {
            let (canvas, _) = Fixture.render(harness.state, ui: harness.controller.ui, width: width, height: height)
            let text = (0..<canvas.height).map { canvas.text(row: $0) }.joined(separator: "\n")
            #expect(text.contains("Title"), "\(width)×\(height)")
            if height >= 24 {
                #expect(text.contains("Capture time"), "\(width)×\(height)")
                #expect(text.contains("enter apply"), "\(width)×\(height)")
            }
        }
    }
}
