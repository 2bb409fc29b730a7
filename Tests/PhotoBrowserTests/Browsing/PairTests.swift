import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// RAW+JPEG pairs: which photos pair, one row for both, marks and tags on both in one outbox write,
/// downloads of both or one, and a pair opened like a burst.
@Suite struct PairTests {
    /// Pairs, and near misses of each rule.
    let photos = [
        Sample.photo(1, "IMG_0001.CR3", bytes: 30_000, takenAt: 100.0, camera: "R5"),
        Sample.photo(2, "img_0001.jpg", bytes: 6_000, takenAt: 100.4, camera: "R5"),      // its pair: case aside, within a second
        Sample.photo(3, "IMG_0002.NEF", bytes: 25_000, takenAt: 200.0, camera: "Z8"),
        Sample.photo(4, "IMG_0002.HEIC", bytes: 3_000, takenAt: 200.0, camera: "Z8"),     // a HEIC pairs too
        Sample.photo(5, "IMG_0003.DNG", takenAt: 300.0, camera: "R5"),
        Sample.photo(6, "IMG_0003.JPG", takenAt: 301.5, camera: "R5"),                    // 1.5 s apart: no pair
        Sample.photo(7, "IMG_0004.DNG", takenAt: 400.0, camera: "R5"),
        Sample.photo(8, "IMG_0004.JPG", takenAt: 400.0, camera: "Z8"),                    // another camera: no pair
        Sample.photo(9, "IMG_0005.JPG", takenAt: 500.0, camera: "R5"),
        Sample.photo(10, "IMG_0005.JPEG", takenAt: 500.0, camera: "R5"),                  // two JPEGs: no pair
        Sample.photo(11, "IMG_0006.DNG", takenAt: 600.0, camera: "R5"),
        Sample.photo(12, "IMG_0007.JPG", takenAt: 600.0, camera: "R5"),                   // another name: no pair
        Sample.photo(13, "IMG_0008.DNG", takenAt: nil, camera: "R5"),
        Sample.photo(14, "IMG_0008.JPG", takenAt: nil, camera: "R5"),                     // no time: no pair
    ]

    private func partnerID(_ state: BrowserState, _ id: Int) -> Int? {
        let library = state.library
        return library.index(ofID: id).flatMap(library.pairs.partner(of:)).map { library[$0].id }
    }

    @Test func aRawAndItsJPEGOrHEICPairByCameraNameAndSecond() {
        let state = Sample.state(photos)
        #expect(state.library.pairs.count == 2)
        #expect(partnerID(state, 1) == 2 && partnerID(state, 2) == 1)
        #expect(partnerID(state, 3) == 4)
        for id in 5...14 { #expect(partnerID(state, id) == nil, "photo \(id)") }
    }

    @Test func aPairIsOneRowWithABadgeAndOpensToListBoth() {
        var state = Sample.state(photos)
        #expect(state.list.count == photos.count - 2)
        #expect(!state.listedNames.contains("img_0001.jpg") && !state.listedNames.contains("IMG_0002.HEIC"))
        let first = state.listedNames.firstIndex(of: "IMG_0001.CR3")!
        #expect(state.list.pairBadge(at: first, library: state.library) == "RAW+JPG")
        #expect(state.list.pairBadge(at: state.listedNames.firstIndex(of: "IMG_0002.NEF")!, library: state.library) == "RAW+HEIC")
        #expect(state.list.pairBadge(at: state.listedNames.firstIndex(of: "IMG_0003.DNG")!, library: state.library) == nil)
        // Opened as a burst is, with the key that opens one: both files, each its own row.
        _ = state.apply(.browsing(.cursorMoved(.position(first))))
        _ = state.apply(.browsing(.stackOpened))
        #expect(state.listedNames[first...].prefix(2) == ["IMG_0001.CR3", "img_0001.jpg"])
        #expect(state.list.pairBadge(at: first, library: state.library) == "RAW")
        #expect(state.list.pairBadge(at: first + 1, library: state.library) == "JPG")
        // Closed again from the JPEG's row: the cursor goes to the RAW's.
        _ = state.apply(.browsing(.cursorMoved(.down)))
        #expect(state.currentName == "img_0001.jpg")
        _ = state.apply(.browsing(.stackOpened))
        #expect(state.currentName == "IMG_0001.CR3")
        #expect(state.list.count == photos.count - 2)
    }

    @Test func aFilterThatMatchesEitherFileListsThePair() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.filterTextChanged(".heic")))
        #expect(state.listedNames == ["IMG_0002.NEF"])
        _ = state.apply(.browsing(.filterTextChanged("img_0001.jpg")))
        #expect(state.listedNames == ["IMG_0001.CR3"])
    }

    @Test func aJPEGThatCameFirstFoldsIntoItsRawWhenItComesAndARenameBreaksThePair() {
        var state = Sample.state([photos[1]])
        #expect(state.listedNames == ["img_0001.jpg"])
        _ = state.apply(.catalogue(.photosArrived([photos[0]], nextCursor: nil)))
        #expect(state.listedNames == ["IMG_0001.CR3"])
        #expect(state.currentName == "IMG_0001.CR3", "the cursor on the JPEG goes to the row that stands for it")
        var renamed = photos[1]
        renamed.filename = "holiday.jpg"
        _ = state.apply(.catalogue(.photosArrived([renamed], nextCursor: nil)))
        #expect(state.library.pairs.count == 0)
        #expect(Set(state.listedNames) == ["IMG_0001.CR3", "holiday.jpg"])
    }

    @Test func aMarkOrATagOnAPairGoesOnBothFilesInOneOutboxWrite() {
        var state = MarkTests.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.top)))
        #expect(state.currentName == "IMG_0001.CR3")
        let effects = state.apply(.tags(.markChosen(.flag(.pick))))
        let writes = effects.compactMap { effect -> [Int]? in
            if case .recordTagDeltas(let deltas) = effect { return deltas.map(\.photoID) }
            return nil
        }
        #expect(writes.map { $0.sorted() } == [[1, 2]], "one write, both files")
        #expect(state.messages.current?.text == "Picked 1 photo.")
        let tag = state.apply(.tags(.tagToggled(tagID: 2)))
        let tagged = tag.compactMap { effect -> [Int]? in
            if case .recordTagDeltas(let deltas) = effect { return deltas.map(\.photoID) }
            return nil
        }
        #expect(tagged.map { $0.sorted() } == [[1, 2]])
        // Opened, the pair's files are marked one at a time.
        _ = state.apply(.browsing(.stackOpened))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        let one = state.apply(.tags(.markChosen(.flag(.reject))))
        let alone = one.flatMap { effect -> [Int] in
            if case .recordTagDeltas(let deltas) = effect { return deltas.map(\.photoID) }
            return []
        }
        #expect(Set(alone) == [2])
    }

    /// An edit of a closed pair's row is an edit of the shot: the JPEG gets the same title, its capture time
    /// moved by as much (so the pair holds), and the new name with its own extension; one undo takes both
    /// back. An opened pair's file, or a script's `--ids` (exact), is edited alone.
    @Test func anEditOfAPairsRowReachesItsOtherFileAndThePairHolds() {
        var state = MarkTests.state(photos)
        func field(_ id: Int, _ field: PhotoField) -> String? { field.value(of: state.library[state.library.index(ofID: id)!]) }
        func written(_ effects: [BrowserEffect]) -> [Int] {
            effects.flatMap { effect -> [Int] in
                if case .recordPhotoEdits(let edits) = effect { return edits.map(\.photoID) }
                return []
            }
        }
        let edits = state.apply(.edits(.photosEdited([
            PhotoFieldChange(photoID: 1, field: .title, value: "Harbour"),
            PhotoFieldChange(photoID: 1, field: .takenAt, value: "1970-01-01T01:00:00Z"),
            PhotoFieldChange(photoID: 1, field: .filename, value: "harbour_001.CR3"),
        ])))
        #expect(Set(written(edits)) == [1, 2], "one outbox write holds both files' edits")
        #expect(field(2, .title) == "Harbour")
        #expect(field(2, .filename) == "harbour_001.jpg")
        let moved = state.library[state.library.index(ofID: 2)!].takenAt?.timeIntervalSince1970 ?? 0
        #expect(abs(moved - 3_600.4) < 0.01, "moved by as much: still 0.4 s after its RAW, not \(moved)")
        #expect(partnerID(state, 1) == 2, "still one shot")
        #expect(state.listedNames.contains("harbour_001.CR3") && !state.listedNames.contains("harbour_001.jpg"))
        _ = state.apply(.undoRequested)
        #expect(field(1, .filename) == "IMG_0001.CR3" && field(2, .filename) == "img_0001.jpg")
        #expect(field(2, .title) == nil && partnerID(state, 1) == 2)
        // A script names files: exactly those.
        let exact = state.apply(.edits(.photosEdited([PhotoFieldChange(photoID: 1, field: .title, value: "RAW only")], exact: true)))
        #expect(written(exact) == [1] && field(2, .title) == nil)
        // Opened, the pair's files are edited one at a time.
        _ = state.apply(.browsing(.cursorMoved(.position(state.listedNames.firstIndex(of: "IMG_0001.CR3")!))))
        _ = state.apply(.browsing(.stackOpened))
        let alone = state.apply(.edits(.photosEdited([PhotoFieldChange(photoID: 2, field: .title, value: "JPEG only")])))
        #expect(written(alone) == [2] && field(1, .title) == "RAW only")
    }

    @Test(arguments: [(PairDownloads.both, [1, 2]), (.raw, [1]), (.jpeg, [2])])
    func aDownloadTakesThePairsFilesAsTheConfigSays(choice: PairDownloads, expected: [Int]) {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp/photopick-test-downloads"), pairDownloads: choice)
        state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        state.apply(.catalogue(.photosArrived(photos, nextCursor: nil)))
        state.apply(.catalogue(.photosFinished(deleted: [], at: Sample.now)))
        _ = state.apply(.browsing(.cursorMoved(.top)))
        let effects = state.apply(.downloads(.downloadRequested))
        let asked = effects.flatMap { effect -> [Int] in
            switch effect {
            case .checkSpace(let items, _, _): items.map(\.photoID)
            case .checkFinishedDownloads(let items, let request): items.map(\.photoID) + request.wanted.map(\.photoID)
            default: []
            }
        }
        #expect(Set(asked) == Set(expected))
        // A script's ids: both takes the file named, raw or jpeg that file of its pair, whichever was named.
        #expect(Set(choice.choose(photoIDs: [2], in: state.library)) == (choice == .both ? [2] : Set(expected)))
        #expect(Set(choice.choose(photoIDs: [1, 2], in: state.library)) == Set(expected), "a query's both files")
        #expect(choice.choose(photoIDs: [5, 6], in: state.library) == [5, 6], "no pair, as named")
    }

    @Test func aPairIsOneFrameOfABurst() {
        let burst = [
            Sample.photo(1, "A_1.DNG", takenAt: 100.0, camera: "R5"), Sample.photo(2, "A_1.JPG", takenAt: 100.0, camera: "R5"),
            Sample.photo(3, "A_2.DNG", takenAt: 100.5, camera: "R5"), Sample.photo(4, "A_2.JPG", takenAt: 100.5, camera: "R5"),
        ]
        var state = Sample.state(burst)
        _ = state.apply(.browsing(.stackingToggled))
        #expect(state.listedNames == ["A_1.DNG"])
        #expect(state.list.stackCount(at: 0) == 2, "two frames, not four files")
    }

    /// A million photos, a fifth of them in pairs, pair in one pass (a gross bound; the figure is the bench's).
    @Test func manyPhotosPairInOnePass() {
        var builder = PhotoLibrary.Builder()
        for shot in 0..<20_000 {
            var raw = Sample.photo(shot * 2 + 1, String(format: "IMG_%05d.ARW", shot), takenAt: Double(shot) * 0.3, camera: "A7")
            raw.mimeType = "image/x-sony-arw"
            builder.add(raw, focus: nil)
            let name = shot % 5 == 0 ? String(format: "IMG_%05d.JPG", shot) : String(format: "DSC_%05d.JPG", shot)
            builder.add(Sample.photo(shot * 2 + 2, name, takenAt: Double(shot) * 0.3 + 0.01, camera: "A7"), focus: nil)
        }
        let library = builder.finish()
        #expect(library.pairs.count == 4_000)
    }
}
