import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

@Suite struct MarkTests {
    static let markTags = [
        PhotoPickKit.Tag(id: 10, name: "Pick", color: "#22c55e"),
        PhotoPickKit.Tag(id: 11, name: "Reject", color: "#6b7280"),
        PhotoPickKit.Tag(id: 13, name: "3 stars", color: nil),
        PhotoPickKit.Tag(id: 15, name: "5 STARS", color: nil),  // names match as the server does, ignoring case
        PhotoPickKit.Tag(id: 20, name: "Red", color: nil),
        PhotoPickKit.Tag(id: 23, name: "Blue", color: nil),
    ]

    let photos = [
        Sample.photo(1, "a.jpg", takenAt: 1, tags: [1]),
        Sample.photo(2, "b.jpg", takenAt: 2, tags: [11]),
        Sample.photo(3, "c.jpg", takenAt: 3, tags: [10, 13, 20, 2]),
    ]

    /// A state with the sample tags and the mark tags above.
    static func state(_ photos: [Photo], names: MarkNames = MarkNames(), tags: [PhotoPickKit.Tag] = markTags) -> BrowserState {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp/photopick-test-downloads"), markNames: names)
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        _ = state.apply(.tags(.tagsLoaded(Sample.tags + tags)))
        _ = state.apply(.catalogue(.photosArrived(photos, nextCursor: nil)))
        _ = state.apply(.catalogue(.photosFinished(deleted: [], at: Sample.now)))
        _ = state.apply(.browsing(.viewResized(rows: 10)))
        return state
    }

    private func recorded(_ effects: [BrowserEffect]) -> [TagDelta] {
        effects.flatMap { effect -> [TagDelta] in
            switch effect {
            case .recordTagDeltas(let deltas), .recordTagCreation(_, let deltas): return deltas
            default: return []
            }
        }
    }

    /// `(photo, tag, change)` of each delta, in order.
    private func changes(_ effects: [BrowserEffect]) -> [String] {
        recorded(effects).map { "\($0.photoID) \($0.change == .add ? "+" : "-")\($0.tagID)" }
    }

    private func marks(_ state: BrowserState, _ id: Int) -> PhotoMarks {
        state.marks(at: state.library.index(ofID: id)!)
    }

    @Test func aPhotoHasOneFlagOneRatingAndOneLabelAndASiblingGoesInTheSameEdit() {
        var state = Self.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.position(2))))  // c.jpg: Pick, 3 stars, Red
        let effects = state.apply(.tags(.markChosen(.flag(.reject))))
        #expect(changes(effects) == ["3 -10", "3 +11"])
        #expect(effects.count { if case .recordTagDeltas = $0 { true } else { false } } == 1, "one outbox write, so one read-modify-write")
        #expect(changes(state.apply(.tags(.markChosen(.rating(5))))) == ["3 -13", "3 +15"])
        #expect(changes(state.apply(.tags(.labelToggled(.blue)))) == ["3 -20", "3 +23"])
        var expected = PhotoMarks()
        expected.flag = .reject
        expected.rating = 5
        expected.label = .blue
        #expect(marks(state, 3) == expected)
        #expect(Set(state.library[2].tagIDs) == [2, 11, 15, 23], "the ordinary tag stays")
        // The same mark again changes nothing; the same label again takes it off.
        #expect(changes(state.apply(.tags(.markChosen(.rating(5))))).isEmpty)
        #expect(changes(state.apply(.tags(.labelToggled(.blue)))) == ["3 -23"])
        #expect(changes(state.apply(.tags(.markCleared(.rating)))) == ["3 -15"])
        #expect(changes(state.apply(.tags(.markCleared(.flag)))) == ["3 -11"])
        #expect(marks(state, 3).isEmpty)
    }

    @Test func aMarkOnASelectionGoesOnEverySelectedPhoto() {
        var state = Self.state(photos)
        _ = state.apply(.selection(.allMatchingSelected))
        let effects = state.apply(.tags(.markChosen(.flag(.pick))))
        #expect(changes(effects) == ["2 -11", "1 +10", "2 +10"])
        #expect(state.messages.current?.text == "Picked 3 photos.")
        #expect((1...3).allSatisfy { marks(state, $0).flag == .pick })
        // A label on three photos of which one has it is set on the others, not toggled off.
        #expect(changes(state.apply(.tags(.labelToggled(.red)))) == ["1 +20", "2 +20"])
        #expect(changes(state.apply(.tags(.labelToggled(.red)))) == ["1 -20", "2 -20", "3 -20"])
    }

    @Test func undoPutsBackTheSiblingTheMarkRemoved() {
        var state = Self.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.position(2))))
        _ = state.apply(.tags(.markChosen(.flag(.reject))))
        let undone = state.apply(.undoRequested)
        #expect(changes(undone) == ["3 -11", "3 +10"])
        #expect(undone.count { if case .recordTagDeltas = $0 { true } else { false } } == 1, "one outbox write, as the press was")
        #expect(marks(state, 3).flag == .pick)
        #expect(state.messages.current?.text == "Undone: the tag changes of 1 photo.", "photos, not edits")
        #expect(state.unsentTagDeltas == 2, "the undo replaces the edit's wishes: one per photo and tag")
    }

    @Test func aMarkWhoseTagDoesNotExistGoesOnAtOnceWithItsCreationInTheSameOutboxWrite() {
        var state = Self.state(photos, tags: [])
        _ = state.apply(.browsing(.cursorMoved(.position(1))))
        let effects = state.apply(.tags(.markChosen(.rating(3))))
        guard case .recordTagCreation(let creations, let deltas)? = effects.first(where: { if case .recordTagCreation = $0 { true } else { false } }) else {
            Issue.record("no outbox write creating the tag: \(effects)")
            return
        }
        #expect(creations.map(\.name) == ["3 stars"] && creations.map(\.color) == ["#f5b301"])
        let placeholder = creations[0].placeholderID
        #expect(placeholder < 0 && deltas.map(\.tagID) == [placeholder] && deltas.map(\.photoID) == [2])
        #expect(marks(state, 2).rating == 3, "shown at once")
        #expect(effects.count { if case .recordTagDeltas = $0 { true } else { false } } == 0, "one write, not two")
        // A second press uses the same pending tag.
        _ = state.apply(.browsing(.cursorMoved(.position(0))))
        #expect(recorded(state.apply(.tags(.markChosen(.rating(3))))).map(\.tagID) == [placeholder])
        // Photo 1 is given 5 stars meanwhile: its later wish replaces the 3 stars, as one wish per tag.
        _ = state.apply(.tags(.markChosen(.rating(5))))
        #expect(state.unsentTagDeltas == 3, "photo 2: +3★; photo 1: −3★ replacing +3★, +5★")
        // The server made it: photos, waiting deltas and undo name the real id.
        _ = state.apply(.tags(.tagCreated(PhotoPickKit.Tag(id: 40, name: "3 stars", color: "#f5b301"), placeholderID: placeholder)))
        #expect(marks(state, 2).rating == 3 && marks(state, 1).rating == 5)
        #expect(state.library[1].tagIDs.contains(40) && !state.library[1].tagIDs.contains(placeholder))
        #expect(state.tagging.pending[2]?.map(\.tagID) == [40])
        #expect(state.tags.tag(id: placeholder) == nil && state.tags.tagID(of: .rating(3)) == 40)
        #expect(state.library.count(ofTag: 40) == 1)
    }

    @Test func aRenamedMarkTagIsTheMarkAndTheDefaultNameIsAnOrdinaryTag() {
        var names = MarkNames()
        names.rename(.flag(.pick), to: "Keeper")
        let keeper = PhotoPickKit.Tag(id: 30, name: "keeper", color: nil)
        var state = Self.state(photos, names: names, tags: Self.markTags + [keeper])
        #expect(state.tags.mark(ofTag: 30) == .flag(.pick))
        #expect(state.tags.mark(ofTag: 10) == nil, "“Pick” is an ordinary tag now")
        #expect(marks(state, 3).flag == nil)
        #expect(changes(state.apply(.tags(.markChosen(.flag(.pick))))) == ["1 +30"])
        #expect(state.tags.ordinaryTags([1, 10, 30, 13]) == [1, 10])
    }

    @Test func aMarkTagToggledFromThePickerStillReplacesItsSibling() {
        var state = Self.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.position(2))))  // c.jpg: Pick, 3 stars, Red
        #expect(changes(state.apply(.tags(.tagToggled(tagID: 11)))) == ["3 -10", "3 +11"])
        #expect(changes(state.apply(.tags(.tagToggled(tagID: 11)))) == ["3 -11"], "toggled off as any tag")
    }

    @Test func aMarkTagCreatedFromThePickerReplacesItsSibling() {
        var state = Self.state(photos, tags: Self.markTags.filter { $0.name != "Reject" })
        let effects = state.apply(.tags(.tagCreationRequested(name: "reject", color: nil, applyTo: [3])))  // c.jpg: Pick
        let placeholder = try! #require(state.tags.tagID(of: .flag(.reject)))
        #expect(changes(effects) == ["3 -10", "3 +\(placeholder)"])
        #expect(marks(state, 3).flag == .reject)
    }

    @Test func tagAddPickCountsThePhotosNotTheEditsTheRejectRemovalsIncluded() {
        let photos = (1...10).map { Sample.photo($0, "\($0).jpg", takenAt: Double($0), tags: $0 % 2 == 0 ? [11] : []) }
        var state = Self.state(photos)
        let ids = photos.map(\.id)
        let before = state.photos(ids, carryingTagNamed: "pick")
        _ = state.apply(.tags(.tagEditRequested(tagID: 10, change: .add, photoIDs: ids)))
        #expect(state.unsentTagDeltas == 15, "ten adds and five Reject removals")
        #expect(before.symmetricDifference(state.photos(ids, carryingTagNamed: "pick")).count == 10, "what `tag add Pick` reports")
        #expect(state.messages.current?.text == "Picked 10 photos.")
        _ = state.apply(.undoRequested)
        #expect(state.messages.current?.text == "Undone: the tag changes of 10 photos.")
    }

    @Test func twoMarksCannotShareATagName() {
        var names = MarkNames()
        #expect(names.clash == nil)
        names.rename(.rating(1), to: "reject")
        #expect(names.clash.map { [$0.0, $0.1] } == [.flag(.reject), .rating(1)])
    }
}
