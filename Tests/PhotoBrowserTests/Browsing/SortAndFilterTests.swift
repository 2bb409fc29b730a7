import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

@Suite struct SortAndFilterTests {
    let photos = [
        Sample.photo(1, "IMG_10.jpg", bytes: 300, takenAt: 3_000, tags: [1], camera: "RICOH GR III"),
        Sample.photo(2, "img_2.jpg", bytes: 900, takenAt: 1_000, tags: [1, 2], title: "Café in Žižkov"),
        Sample.photo(3, "Beach.JPG", bytes: 100, takenAt: nil, lens: "XF 35mm F1.4"),
        Sample.photo(4, "IMG_1.jpg", bytes: 500, takenAt: 2_000, tags: [2]),
    ]

    @Test func sortsByCaptureTimeByDefaultWithUnknownTimesLast() {
        #expect(Sample.state(photos).listedNames == ["img_2.jpg", "IMG_1.jpg", "IMG_10.jpg", "Beach.JPG"])
    }

    @Test func sortCyclesThroughNaturalFilenameOrderAndLargestFirst() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.sortCycled))
        #expect(state.list.sort == .filename)
        #expect(state.listedNames == ["Beach.JPG", "IMG_1.jpg", "img_2.jpg", "IMG_10.jpg"])
        _ = state.apply(.browsing(.sortCycled))
        #expect(state.listedNames == ["img_2.jpg", "IMG_1.jpg", "IMG_10.jpg", "Beach.JPG"])
        #expect(state.list.sort == .size)
        _ = state.apply(.browsing(.sortCycled))
        #expect(state.list.sort == .captureTime)
    }

    @Test func textFilterIgnoresCaseAndAccentsAndSearchesTitleCameraAndLens() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.filterTextChanged("cafe ZIZKOV")))
        #expect(state.listedNames == ["img_2.jpg"])
        _ = state.apply(.browsing(.filterTextChanged("ricoh")))
        #expect(state.listedNames == ["IMG_10.jpg"])
        _ = state.apply(.browsing(.filterTextChanged("35MM")))
        #expect(state.listedNames == ["Beach.JPG"])
        _ = state.apply(.browsing(.filterTextChanged("img")))
        #expect(state.list.count == 3)
        _ = state.apply(.browsing(.filterTextChanged("nothing like this")))
        #expect(state.list.count == 0)
        #expect(state.currentPhoto == nil)
    }

    @Test func tagFilterMatchesAnyAllOrUntagged() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.tagFilterChanged(.any([1, 2]))))
        #expect(Set(state.listedNames) == ["IMG_10.jpg", "img_2.jpg", "IMG_1.jpg"])
        _ = state.apply(.browsing(.tagFilterChanged(.all([1, 2]))))
        #expect(state.listedNames == ["img_2.jpg"])
        _ = state.apply(.browsing(.tagFilterChanged(.untagged)))
        #expect(state.listedNames == ["Beach.JPG"])
    }

    @Test func dateRangeLeavesOutPhotosWithoutACaptureTime() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.dateRangeChanged(Date(timeIntervalSince1970: 1_500)...Date(timeIntervalSince1970: 3_000))))
        #expect(state.listedNames == ["IMG_1.jpg", "IMG_10.jpg"])
        _ = state.apply(.browsing(.filtersCleared))
        #expect(state.list.count == 4)
    }

    @Test func cursorKeepsItsPhotoWhenTheFilterChangesAndMovesOnWhenItIsFilteredOut() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.down)))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        #expect(state.currentName == "IMG_10.jpg")
        _ = state.apply(.browsing(.filterTextChanged("img")))
        #expect(state.currentName == "IMG_10.jpg")
        _ = state.apply(.browsing(.tagFilterChanged(.all([2]))))
        // IMG_10 lacks tag 2; the next photo in sort order that passes is none, so the previous one is taken.
        #expect(state.currentName == "IMG_1.jpg")
        _ = state.apply(.browsing(.filtersCleared))
        #expect(state.currentName == "IMG_1.jpg")
    }

    @Test func photosArrivingEarlierInSortOrderDoNotMoveTheCursorOffItsPhoto() {
        var state = Sample.state(Array(photos.prefix(2)))
        _ = state.apply(.browsing(.cursorMoved(.bottom)))
        #expect(state.currentName == "IMG_10.jpg")
        _ = state.apply(.catalogue(.photosArrived([Sample.photo(9, "early.jpg", takenAt: 10)], nextCursor: nil)))
        #expect(state.currentName == "IMG_10.jpg")
        #expect(state.listedNames.first == "early.jpg")
    }

    @Test func aPhotoSeenAgainIsUpdatedInPlaceNotAddedTwice() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.sortChosen(.filename)))
        _ = state.apply(.browsing(.cursorMoved(.position(2))))
        #expect(state.currentPhoto?.id == 2)
        // Photo 2 comes back renamed and untagged: same index, new name and place in the name order, tags recounted.
        _ = state.apply(.catalogue(.photosArrived([photos[0], Sample.photo(2, "a_first.jpg", takenAt: 1_000)], nextCursor: nil)))
        #expect(state.library.count == 4)
        #expect(state.library.index(ofID: 2) == 1)
        #expect(state.library[1].filename == "a_first.jpg")
        #expect(state.listedNames.first == "a_first.jpg")
        #expect(state.library.count(ofTag: 1) == 1 && state.library.count(ofTag: 2) == 1)
        #expect(state.currentPhoto?.id == 2 && state.list.cursor == 0, "the cursor stays on its photo, now first")
    }

    @Test func aPageAskedForBeforeATagWriteDoesNotPutTheOldTagsBack() {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp"))
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        _ = state.apply(.catalogue(.catalogueLoaded(Catalogue.Snapshot(), notice: nil, at: Sample.now)))
        _ = state.apply(.catalogue(.photosArrived(photos, nextCursor: "c")))
        // The server confirms photo 2's new set, then a page fetched earlier arrives with the old one,
        // and photo 9, not listed yet, is written before its page comes.
        _ = state.apply(.tags(.tagDeltasSent(photoID: 2, sequences: [], serverTagIDs: [3])))
        _ = state.apply(.tags(.tagDeltasSent(photoID: 9, sequences: [], serverTagIDs: [4])))
        _ = state.apply(.catalogue(.photosArrived([photos[1], Sample.photo(9, "late.jpg", tags: [1])], nextCursor: nil)))
        #expect(state.library.index(ofID: 2).map { state.library[$0].tagIDs } == [3])
        #expect(state.library.index(ofID: 9).map { state.library[$0].tagIDs } == [4])
        _ = state.apply(.catalogue(.photosFinished(deleted: [], at: Sample.now)))
        // A later walk's pages are newer than the write: they count again.
        _ = state.apply(.catalogue(.refreshRequested))
        _ = state.apply(.catalogue(.photosArrived([photos[1]], nextCursor: nil)))
        #expect(state.library.index(ofID: 2).map { state.library[$0].tagIDs } == [1, 2])
    }

    @Test func aPhotoTheWalkDidNotSeeIsRemovedAndTheCursorStaysPut() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.position(1))))
        #expect(state.currentName == "IMG_1.jpg")
        _ = state.apply(.selection(.selectionToggled))
        _ = state.apply(.catalogue(.photosFinished(deleted: [4, 99], at: Sample.now)))
        #expect(state.library.count == 3)
        #expect(state.library.index(ofID: 4) == nil)
        #expect(state.listedNames == ["img_2.jpg", "IMG_10.jpg", "Beach.JPG"])
        #expect(state.currentName == "IMG_10.jpg", "the next photo moved up under the cursor")
        #expect(state.selection.isEmpty, "a deleted photo leaves the selection")
        #expect(state.library.count(ofTag: 2) == 1)
    }

    @Test func cursorMovesByRowsPagesAndHalfPagesAndTheViewFollows() {
        var state = Sample.state((1...100).map { Sample.photo($0, "p\($0).jpg", takenAt: Double($0)) })
        _ = state.apply(.browsing(.cursorMoved(.pageDown)))
        #expect(state.list.cursor == 10)
        #expect(state.list.rowsInView == 1..<11)
        _ = state.apply(.browsing(.cursorMoved(.halfPageDown)))
        #expect(state.list.cursor == 15)
        _ = state.apply(.browsing(.cursorMoved(.bottom)))
        #expect(state.list.cursor == 99)
        #expect(state.list.rowsInView == 90..<100)
        _ = state.apply(.browsing(.cursorMoved(.halfPageUp)))
        _ = state.apply(.browsing(.cursorMoved(.up)))
        #expect(state.list.cursor == 93)
        _ = state.apply(.browsing(.cursorMoved(.top)))
        #expect(state.list.rowsInView == 0..<10)
        _ = state.apply(.browsing(.cursorMoved(.up)))
        #expect(state.list.cursor == 0)
        _ = state.apply(.browsing(.cursorMoved(.position(500))))
        #expect(state.list.cursor == 99)
    }

    @Test func naturalOrderComparesDigitRunsByValue() {
        #expect(NaturalOrder.compare("a2", "a10") < 0)
        #expect(NaturalOrder.compare("A010", "a10") == 0)
        #expect(NaturalOrder.compare("b", "A") > 0)
        #expect(NaturalOrder.compare("x", "x1") < 0)
    }

    @Test func loadSummaryCountsWhileLoadingAndTotalsWhenDone() {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp"))
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        #expect(state.loadSummary == "opening…")
        _ = state.apply(.catalogue(.catalogueLoaded(Catalogue.Snapshot(), notice: nil, at: Sample.now)))
        #expect(state.loading.phase == .loading)
        _ = state.apply(.catalogue(.photosArrived((1...1_300).map { Sample.photo($0, "\($0).jpg") }, nextCursor: "c")))
        #expect(state.loadSummary == "1,300 of ? loaded…")
        _ = state.apply(.catalogue(.photosFinished(deleted: [], at: Sample.now)))
        #expect(state.loadSummary == "1,300 photos")
    }

    @Test func refusedCursorRestartsTheWalkAndKnownPhotosAreSkipped() {
        var state = Sample.state(photos)
        let effects = state.apply(.catalogue(.photosCursorRefused))
        #expect(effects.contains(.walkLibrary))
        _ = state.apply(.catalogue(.photosArrived(photos, nextCursor: nil)))
        #expect(state.library.count == 4)
    }
}
