import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// Focus scores in the view model: kept, filtered on, ranked in bursts, and the sharpest picked.
@Suite struct SharpestFramesTests {
    /// Two bursts of camera A (three frames, then two) and one of B, plus a lone photo.
    let photos = [
        Sample.photo(1, "a1.jpg", takenAt: 100.0, camera: "A"),
        Sample.photo(2, "a2.jpg", takenAt: 100.5, camera: "A"),
        Sample.photo(3, "a3.jpg", takenAt: 101.0, camera: "A"),
        Sample.photo(4, "b1.jpg", takenAt: 100.2, camera: "B"),
        Sample.photo(5, "b2.jpg", takenAt: 100.9, camera: "B"),
        Sample.photo(6, "t1.jpg", takenAt: 200, camera: "A"),
        Sample.photo(7, "t2.jpg", takenAt: 200.4, camera: "A"),
        Sample.photo(8, "lone.jpg", takenAt: 500, camera: "A"),
    ]

    func measured(_ scores: [Int: Double]) -> BrowserState {
        var state = MarkTests.state(photos)
        for (id, score) in scores { _ = state.apply(.focus(.focusMeasured(photoID: id, score: score))) }
        return state
    }

    func picked(_ effects: [BrowserEffect]) -> [Int] {
        effects.flatMap { effect -> [Int] in
            guard case .recordTagDeltas(let deltas) = effect else { return [] }
            return deltas.filter { $0.tagID == 10 && $0.change == .add }.map(\.photoID)
        }
    }

    @Test func aScoreIsKeptOnceAndSavedOnlyWhenItChanges() {
        var state = MarkTests.state(photos)
        let first = state.apply(.focus(.focusMeasured(photoID: 2, score: 7.25)))
        #expect(first.contains { if case .saveFocusScore(2, 7.25) = $0 { true } else { false } })
        #expect(state.apply(.focus(.focusMeasured(photoID: 2, score: 7.25))).isEmpty, "the same score again is nothing new")
        #expect(state.library.focusScore(at: state.library.index(ofID: 2)!) == 7.25)
        #expect(state.apply(.focus(.focusMeasured(photoID: 99, score: 1))).isEmpty, "a photo not loaded")
    }

    @Test func sharpFiltersOnTheScoreAndAPhotoNotMeasuredFailsIt() {
        var state = measured([1: 9, 2: 3.5, 4: 4])
        _ = state.apply(.browsing(.filterTextChanged("sharp>=4")))
        #expect(state.listedNames.sorted() == ["a1.jpg", "b1.jpg"])
        // A new score re-runs a filter that reads scores.
        _ = state.apply(.focus(.focusMeasured(photoID: 8, score: 12)))
        #expect(state.listedNames.sorted() == ["a1.jpg", "b1.jpg", "lone.jpg"])
        _ = state.apply(.browsing(.filterTextChanged("sharp:3..4 -reject")))
        #expect(state.listedNames.sorted() == ["a2.jpg", "b1.jpg"])
        #expect(PhotoQuery("sharp>=soft").problems.first?.reason == "“soft” is not a number; write it like sharp>=4")
    }

    @Test func theSharpestFrameOfEachBurstIsPickedAsOneUndoableEdit() {
        // Burst A: a2 is sharpest. Burst B: b1 only measured. Burst t: none measured.
        var state = measured([1: 5, 2: 9, 3: 6, 4: 4, 8: 20])
        let plan = state.sharpestFrames()
        #expect(plan.winners.map { state.library[$0].id }.sorted() == [2, 4])
        #expect(plan.partlyMeasured == 1 && plan.unmeasured == 1 && plan.alreadyPicked == 0 && plan.bursts == 3)
        let effects = state.apply(.focus(.sharpestFramesPicked))
        #expect(picked(effects).sorted() == [2, 4])
        #expect(effects.count { if case .recordTagDeltas = $0 { true } else { false } } == 1, "one outbox write")
        #expect(state.messages.current?.text == "Picked the sharpest frame of 2 bursts. 1 burst has no frame measured yet.")
        #expect(state.sharpestFrames().alreadyPicked == 2)
        _ = state.apply(.undoRequested)
        #expect(state.marks(at: state.library.index(ofID: 2)!).flag == nil, "undone as one press")
        #expect(state.marks(at: state.library.index(ofID: 4)!).flag == nil)
    }

    /// The loupe's scores at 100% over the spot the loupe looked at in burst A: 1 is sharpest there.
    func atFullSize(_ state: inout BrowserState, _ scores: [Int: Double], spot x: Int = 100) {
        for (id, score) in scores {
            let spot = FullSizeFocus.Spot(x: x, y: 50, width: 640, height: 400, imageWidth: 6000, imageHeight: 4000)
            _ = state.apply(.focus(.focusMeasuredAtFullSize(photoID: id, FullSizeFocus(score: score, spot: spot))))
        }
    }

    @Test func aBurstTheLoupeMeasuredWholeAt100PercentIsJudgedThere() {
        var state = measured([1: 5, 2: 9, 3: 6, 4: 4])
        atFullSize(&state, [1: 40, 2: 20, 3: 30, 99: 50])
        let plan = state.sharpestFrames()
        #expect(plan.winners.map { state.library[$0].id }.sorted() == [1, 4], "A by the loupe's scores, B by the renditions'")
        #expect(plan.judgedAtFullSize == 1)
        let effects = state.apply(.focus(.sharpestFramesPicked))
        #expect(picked(effects).sorted() == [1, 4])
        #expect(state.messages.current?.text == "Picked the sharpest frame of 2 bursts (1 judged at 100%). 1 burst has no frame measured yet.")
        _ = state.apply(.browsing(.stackingToggled))
        let first = state.focusFacts(at: state.library.index(ofID: 1)!)
        #expect(first?.text == "5.0 · 40.0 at 100% · sharpest of 3 at 100%")
        #expect(first?.loupeText == "sharp 40.0 here · sharpest of 3")
        #expect(state.focusFacts(at: state.library.index(ofID: 2)!)?.loupeText == "sharp 20.0 here · 3rd of 3")
    }

    @Test func aBurstMeasuredAt100PercentInPartsOrInTwoSpotsIsJudgedOnItsRenditions() {
        var state = measured([1: 5, 2: 9, 3: 6])
        atFullSize(&state, [1: 40, 3: 30])
        #expect(state.sharpestFrames().winners.map { state.library[$0].id } == [2], "frame 2 was not looked at closely")
        _ = state.apply(.browsing(.stackingToggled))
        let first = state.focusFacts(at: state.library.index(ofID: 1)!)
        #expect(first?.text == "5.0 · 40.0 at 100% · sharpest of 3 at 100% (2 measured)")
        #expect(first?.loupeText == "sharp 40.0 here · sharpest of 3 (2 measured)")
        atFullSize(&state, [2: 90], spot: 700)
        #expect(state.sharpestFrames().winners.map { state.library[$0].id } == [2], "elsewhere in the picture: no comparison")
        #expect(state.sharpestFrames().judgedAtFullSize == 0)
        #expect(state.focusFacts(at: state.library.index(ofID: 2)!)?.text == "9.0 · 90.0 at 100% · sharpest of 3", "ranked on the renditions")
        let lone = state.library.index(ofID: 8)!
        atFullSize(&state, [8: 12])
        #expect(state.focusFacts(at: lone)?.text == "12.0 at 100%", "measured only by the loupe")
    }

    @Test func aPickReplacesARejectAndFramesOfAClosedStackStillCount() {
        var state = measured([6: 2, 7: 8])
        _ = state.apply(.browsing(.cursorMoved(.position(state.list.count - 2))))
        #expect(state.currentName == "t2.jpg")
        _ = state.apply(.tags(.markChosen(.flag(.reject))))
        _ = state.apply(.browsing(.stackingToggled))  // t1 covers t2 now
        #expect(!state.listedNames.contains("t2.jpg"))
        let effects = state.apply(.focus(.sharpestFramesPicked))
        #expect(picked(effects) == [7])
        #expect(state.marks(at: state.library.index(ofID: 7)!).flag == .pick, "the reject gave way")
    }

    @Test func theFilterLimitsWhichBurstsAndFramesCount() {
        var state = measured([1: 5, 2: 9, 3: 6, 4: 4, 5: 30])
        _ = state.apply(.browsing(.filterTextChanged("camera:A -a2")))
        let plan = state.sharpestFrames()
        #expect(plan.winners.map { state.library[$0].id } == [3], "a2 is filtered out; burst B is not listed; t unmeasured")
        #expect(plan.unmeasured == 1)
    }

    @Test func nothingMeasuredOrNoBurstsSaysSoAndPicksNothing() {
        var state = MarkTests.state(photos)
        #expect(picked(state.apply(.focus(.sharpestFramesPicked))).isEmpty)
        #expect(state.messages.current?.text.hasPrefix("No frame of the 3 bursts listed is measured yet") == true)
        var lone = MarkTests.state([Sample.photo(8, "lone.jpg", takenAt: 500, camera: "A")])
        _ = lone.apply(.focus(.sharpestFramesPicked))
        #expect(lone.messages.current?.text == "No bursts among the photos listed.")
    }

    @Test func theMetadataShowsTheScoreAndItsPlaceInAStackedBurst() {
        var state = measured([1: 5, 2: 9, 3: 6])
        #expect(state.focusFacts(at: state.library.index(ofID: 1)!)?.text == "5.0", "not stacked: the score alone")
        #expect(state.focusFacts(at: state.library.index(ofID: 6)!) == nil)
        _ = state.apply(.browsing(.stackingToggled))
        #expect(state.focusFacts(at: state.library.index(ofID: 3)!)?.text == "6.0 · 2nd of 3")
        #expect(state.focusFacts(at: state.library.index(ofID: 2)!)?.text == "9.0 · sharpest of 3")
        #expect(FocusFacts(score: 1, rank: 2, frames: 5, measured: 3).text == "1.0 · 2nd of 5 (3 measured)")
    }
}
