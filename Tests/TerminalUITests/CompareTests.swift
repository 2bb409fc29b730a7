import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

/// Compare: what `C` opens, how the active photo moves and takes marks, how it is drawn, and what it
/// asks the loader for.
@Suite struct CompareTests {
    typealias Harness = ControllerTests.Harness

    /// Photos 1–6: a burst of three (1–3, half a second apart), then three an hour apart each.
    static func burstPhotos() -> [Photo] {
        Fixture.photos(6).enumerated().map { offset, photo in
            var photo = photo
            let seconds = offset < 3 ? Double(offset) * 0.5 : Double(offset) * 3600
            photo.takenAt = Date(timeIntervalSince1970: 1_600_000_000 + seconds)
            return photo
        }
    }

    static func harness() -> Harness {
        var harness = Harness()
        harness.state = Fixture.state(burstPhotos())
        _ = harness.state.apply(.tags(.tagsLoaded(Fixture.tags + CullViewTests.markTags)))
        _ = harness.state.apply(.browsing(.viewResized(rows: harness.layout.pageItems)))
        return harness
    }

    private func flag(_ harness: Harness, _ id: Int) -> Mark.Flag? {
        harness.state.marks(at: harness.state.library.index(ofID: id)!).flag
    }

    @Test func cOnABurstComparesItsFramesAndTheMarkKeysMarkTheActiveOne() {
        var harness = Self.harness()
        harness.press(.character("j"))  // on frame 2
        harness.press(.character("C"))
        #expect(harness.controller.ui.compare?.photoIDs == [1, 2, 3])
        #expect(harness.controller.ui.compare?.activeID == 2, "the frame under the cursor is active")
        harness.press(.character("l"))
        #expect(harness.controller.ui.compare?.activeID == 3)
        harness.press(.character("P"))
        #expect(flag(harness, 3) == .pick && flag(harness, 2) == nil, "the active frame, not the cursor's")
        harness.press(.character("h"), .character("h"), .character("h"))
        #expect(harness.controller.ui.compare?.activeID == 1, "stops at the first")
        harness.press(.character("X"), .character("3"), .character("6"))
        let marks = harness.state.marks(at: harness.state.library.index(ofID: 1)!)
        #expect(marks.flag == .reject && marks.rating == 3 && marks.label == .red, "digits rate and label without cull mode")
        #expect(harness.controller.ui.compare?.activeID == 1, "marking does not move on in compare")
        harness.press(.character("U"))
        #expect(flag(harness, 1) == nil)
        harness.press(.character("u"))
        #expect(flag(harness, 1) == .reject, "u undoes the unflag")
        harness.press(.escape)
        #expect(harness.controller.ui.compare == nil)
        #expect(harness.currentName == Fixture.names[1], "back where it was")
    }

    @Test func cComparesTwoToFourSelectedPhotosAndSaysWhyOtherwise() {
        var harness = Self.harness()
        harness.press(.character("G"))  // the last photo: in no burst
        harness.press(.character("C"))
        #expect(harness.controller.ui.compare == nil)
        #expect(harness.state.messages.current?.text == "Select 2 to 4 photos, or stand on a burst, to compare them.")
        harness.press(.character(" "), .character("k"), .character("k"), .character(" "))
        harness.press(.character("C"))
        #expect(harness.controller.ui.compare?.photoIDs == [4, 6])
        harness.press(.character("C"))
        #expect(harness.controller.ui.compare == nil, "C again returns")
        harness.press(.character("a"))  // all six
        harness.press(.character("C"))
        #expect(harness.controller.ui.compare == nil)
        #expect(harness.state.messages.current?.text == "Compare shows 2 to 4 photos; 6 are selected.")
    }

    @Test func selectedPhotosAClosedStackHidesDoNotCountSoCompareFallsBackToTheBurst() {
        var harness = Self.harness()
        harness.press(.character("j"), .character(" "), .character(" "))  // frames 2 and 3 selected
        #expect(harness.state.selection.count == 2)
        harness.press(.character("b"), .character("g"))  // stacked: frames 2 and 3 fold under the cover
        harness.press(.character("C"))
        #expect(harness.controller.ui.compare?.photoIDs == [1, 2, 3], "the selection listed is empty: the burst here")
    }

    @Test func thePanesGiveThePhotosTheLargestSize() {
        let body = Rect(x: 0, y: 1, width: 120, height: 38)
        let two = CompareView.comparePanes(count: 2, pixelWidth: 6000, pixelHeight: 4000, in: body)
        #expect(two.map(\.width) == [60, 60] && two.map(\.height) == [38, 38], "side by side")
        let four = CompareView.comparePanes(count: 4, pixelWidth: 6000, pixelHeight: 4000, in: body)
        #expect(Set(four.map(\.width)) == [60] && Set(four.map(\.height)) == [19], "two by two beats four in a row")
        let tall = CompareView.comparePanes(count: 3, pixelWidth: 3000, pixelHeight: 4500, in: body)
        #expect(tall.map(\.x) == [0, 40, 80], "portraits in a row")
        #expect(CompareView.comparePanes(count: 3, pixelWidth: nil, pixelHeight: nil, in: Rect(x: 0, y: 0, width: 0, height: 0)).isEmpty)
    }

    @Test(arguments: [Theme.Depth.colors256, .monochrome])
    func comparisonIsDrawnAtEverySize(depth: Theme.Depth) {
        var state = Fixture.state(Self.burstPhotos())
        _ = state.apply(.tags(.tagsLoaded(Fixture.tags + CullViewTests.markTags)))
        _ = state.apply(.focus(.focusMeasured(photoID: 2, score: 6.25)))
        var ui = UIState()
        ui.compare = UIState.Compare(photoIDs: [1, 2, 3], active: 1)
        for (width, height) in Fixture.sizes {
            let (canvas, layout) = Fixture.render(state, ui: ui, width: width, height: height, depth: depth)
            guard !layout.tooSmall else { continue }
            let text = canvas.lines.joined(separator: "\n")
            #expect(text.contains("▶2/3"), "\(width)×\(height): the active caption, with its place")
            if width >= 80 {
                #expect(text.contains("1/3 R0001.JPG") && text.contains("3/3"), "\(width)×\(height)")
                #expect(text.contains("sharp 6.2") || text.contains("sharp 6.3"), "the active frame's score")
                #expect(canvas.lines[height - 1].contains("compare · 2/3"))
            }
        }
    }

    /// A burst of six: four show at once, and h and l scroll so the active frame is always among them.
    @Test func moreThanFourScrollSoTheActiveOneIsAlwaysShown() {
        var compare = UIState.Compare(photoIDs: [1, 2, 3, 4, 5, 6])
        #expect(compare.shown == 0..<4)
        compare.move(by: 3)
        #expect(compare.activeID == 4 && compare.shown == 0..<4)
        compare.move(by: 1)
        #expect(compare.activeID == 5 && compare.shown == 1..<5, "one more scrolls by one")
        compare.move(by: 10)
        #expect(compare.activeID == 6 && compare.shown == 2..<6, "stops at the last")
        compare.move(by: -3)
        #expect(compare.activeID == 3 && compare.shown == 2..<6)
        compare.move(by: -1)
        #expect(compare.activeID == 2 && compare.shown == 1..<5)
        #expect(UIState.Compare(photoIDs: [1, 2, 3, 4, 5, 6], active: 5).shown == 2..<6, "opened on the last: the last four")
        // What the screen asks the loader for follows: the four shown, the active one first.
        var state = Fixture.state(Self.burstPhotos())
        _ = state.apply(.browsing(.viewResized(rows: 30)))
        var ui = UIState()
        ui.compare = UIState.Compare(photoIDs: [1, 2, 3, 4, 5, 6], active: 5)
        let frame = Screen(context: Fixture.context(.direct)).frame(state, ui, width: 120, height: 40)
        #expect(frame.wants.map(\.photoID) == [6, 3, 4, 5])
    }

    @Test func compareWantsEveryPhotoShownTheActiveFirst() {
        var state = Fixture.state(Self.burstPhotos())
        _ = state.apply(.browsing(.viewResized(rows: 30)))
        var ui = UIState()
        ui.compare = UIState.Compare(photoIDs: [1, 2, 3], active: 2)
        let screen = Screen(context: Fixture.context(.direct))
        let frame = screen.frame(state, ui, width: 120, height: 40)
        #expect(frame.wants.map(\.photoID) == [3, 1, 2])
        #expect(frame.shownWants == 3)
    }
}
