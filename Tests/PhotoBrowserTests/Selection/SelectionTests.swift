import Foundation
import Testing
@testable import PhotoBrowser

@Suite struct SelectionTests {
    let state = Sample.state((1...20).map { Sample.photo($0, String(format: "p%02d.jpg", $0), bytes: Int64($0), takenAt: Double($0)) })

    @Test func toggleAndAdvanceSelectsAndMovesOn() {
        var state = state
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        _ = state.apply(.selection(.selectionToggledAndAdvanced))
        _ = state.apply(.selection(.selectionToggled))
        #expect(state.selectedNames == ["p01.jpg", "p02.jpg", "p03.jpg"])
        #expect(state.selection.totalBytes == 6)
        _ = state.apply(.selection(.selectionToggled))
        #expect(state.selectedNames == ["p01.jpg", "p02.jpg"])
        #expect(state.currentName == "p03.jpg")
    }

    @Test func visualRangeGrowsShrinksAndCancelRestoresTheSelectionBefore() {
        var state = state
        _ = state.apply(.browsing(.cursorMoved(.position(10))))
        _ = state.apply(.selection(.selectionToggled)) // p11
        _ = state.apply(.browsing(.cursorMoved(.position(2))))
        _ = state.apply(.selection(.visualRangeToggled))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        #expect(state.selectedNames == ["p03.jpg", "p04.jpg", "p05.jpg", "p11.jpg"])
        _ = state.apply(.browsing(.cursorMoved(.up)))
        #expect(state.selectedNames == ["p03.jpg", "p04.jpg", "p11.jpg"])
        _ = state.apply(.browsing(.cursorMoved(.position(0))))
        #expect(state.selectedNames == ["p01.jpg", "p02.jpg", "p03.jpg", "p11.jpg"])
        _ = state.apply(.selection(.visualRangeCancelled))
        #expect(state.selectedNames == ["p11.jpg"])
        #expect(state.selecting.visualRange == nil)
    }

    @Test func visualRangeKeptWithVKeepsTheSelection() {
        var state = state
        _ = state.apply(.selection(.visualRangeToggled))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        _ = state.apply(.selection(.visualRangeToggled))
        _ = state.apply(.browsing(.cursorMoved(.bottom)))
        #expect(state.selectedNames == ["p01.jpg", "p02.jpg"])
    }

    @Test func selectAllInvertAndClearWorkOnWhatTheFilterShows() {
        var state = state
        _ = state.apply(.browsing(.filterTextChanged("p1")))
        #expect(state.list.count == 10)
        _ = state.apply(.selection(.allMatchingSelected))
        #expect(state.selection.count == 10)
        _ = state.apply(.browsing(.filterTextChanged("p0")))
        _ = state.apply(.selection(.selectionInverted))
        #expect(state.selection.count == 19)
        _ = state.apply(.browsing(.filtersCleared))
        _ = state.apply(.selection(.selectionInverted))
        #expect(state.selectedNames == ["p20.jpg"])
        #expect(!state.selectedNames.contains("p10.jpg"))
        _ = state.apply(.selection(.selectionCleared))
        #expect(state.selection.isEmpty)
        #expect(state.selection.totalBytes == 0)
    }

    @Test func selectionSurvivesFilterChangesAndCanBeTheFilter() {
        var state = state
        _ = state.apply(.selection(.selectionToggled))
        _ = state.apply(.browsing(.cursorMoved(.bottom)))
        _ = state.apply(.selection(.selectionToggled))
        _ = state.apply(.browsing(.filterTextChanged("p05")))
        #expect(state.selection.count == 2)
        _ = state.apply(.browsing(.filtersCleared))
        _ = state.apply(.browsing(.onlySelectedToggled))
        #expect(state.listedNames == ["p01.jpg", "p20.jpg"])
        #expect(state.selection.totalBytes == 21)
    }

    @Test func aVisualRangeFollowsItsPhotosWhenEarlierPhotosArrive() {
        var state = state
        _ = state.apply(.browsing(.cursorMoved(.position(4))))
        _ = state.apply(.selection(.visualRangeToggled))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        _ = state.apply(.catalogue(.photosArrived([Sample.photo(30, "early.jpg", takenAt: 0.5), Sample.photo(31, "between.jpg", takenAt: 5.5)], nextCursor: nil)))
        #expect(state.selectedNames == ["p05.jpg", "p06.jpg", "between.jpg"])
        _ = state.apply(.browsing(.cursorMoved(.down)))
        #expect(state.selectedNames == ["p05.jpg", "p06.jpg", "p07.jpg", "between.jpg"])
        _ = state.apply(.selection(.visualRangeCancelled))
        #expect(state.selection.isEmpty)
    }
}
