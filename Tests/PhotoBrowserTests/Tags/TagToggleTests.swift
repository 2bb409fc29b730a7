import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

@Suite struct TagToggleTests {
    let photos = [
        Sample.photo(1, "a.jpg", takenAt: 1, tags: [1]),
        Sample.photo(2, "b.jpg", takenAt: 2),
        Sample.photo(3, "c.jpg", takenAt: 3, tags: [1]),
    ]

    private func recorded(_ effects: [BrowserEffect]) -> [TagDelta] {
        effects.flatMap { effect -> [TagDelta] in
            switch effect {
            case .recordTagDeltas(let deltas), .recordTagCreation(_, let deltas): return deltas
            default: return []
            }
        }
    }

    @Test func addsToThoseThatLackItUnlessAllHaveItThenRemovesFromAll() {
        var state = Sample.state(photos)
        _ = state.apply(.selection(.allMatchingSelected))
        let added = recorded(state.apply(.tags(.tagNumberPressed(1))))
        #expect(added.map(\.photoID) == [2])
        #expect(added.allSatisfy { $0.change == .add && $0.tagID == 1 })
        #expect(state.library.count(ofTag: 1) == 3)
        let removed = recorded(state.apply(.tags(.tagToggled(tagID: 1))))
        #expect(removed.map(\.photoID) == [1, 2, 3])
        #expect(removed.allSatisfy { $0.change == .remove })
        #expect(state.library.count(ofTag: 1) == 0)
        #expect(state.unsentTagDeltas == 3, "photo 2's add is replaced by its removal")
    }

    @Test func aTagCreatedForPhotosGoesOnThemAtOnceAndTakesItsRealIDWhenMade() {
        var state = Sample.state(photos)
        let effects = state.apply(.tags(.tagCreationRequested(name: " Kyoto ", color: nil, applyTo: [1, 3])))
        guard case .recordTagCreation(let creations, let deltas)? = effects.first else {
            Issue.record("the creation and its edits are not one outbox write: \(effects)")
            return
        }
        let placeholder = creations[0].placeholderID
        #expect(creations.map(\.name) == ["Kyoto"])
        #expect(deltas.map(\.photoID) == [1, 3] && deltas.allSatisfy { $0.tagID == placeholder && $0.change == .add })
        #expect(state.library[0].tagIDs.contains(placeholder) && state.tags.isPending(placeholder))
        #expect(state.hasUnfinishedWork)
        // Another tag saved meanwhile (a rename) is not the pending one.
        _ = state.apply(.tags(.tagSaved(PhotoPickKit.Tag(id: 1, name: "kyoto", color: nil))))
        #expect(state.tags.isPending(placeholder))
        let made = state.apply(.tags(.tagCreated(PhotoPickKit.Tag(id: 9, name: "KYOTO", color: nil), placeholderID: placeholder)))
        #expect(recorded(made).isEmpty, "the outbox renamed its own rows")
        #expect(state.library[0].tagIDs.contains(9) && state.library[2].tagIDs.contains(9) && !state.library[1].tagIDs.contains(9))
        #expect(state.library.count(ofTag: 9) == 2 && state.tags.tag(id: placeholder) == nil)
        // Undo takes the real tag off again.
        let undone = recorded(state.apply(.undoRequested))
        #expect(undone.map(\.change) == [.remove, .remove] && undone.allSatisfy { $0.tagID == 9 })
    }

    @Test func aRefusedCreationTakesTheTagOffItsPhotosAndOutOfTheList() {
        var state = Sample.state(photos)
        let deltas = recorded(state.apply(.tags(.tagCreationRequested(name: "Kyoto", color: nil, applyTo: [2]))))
        let placeholder = deltas[0].tagID
        _ = state.apply(.tags(.tagDeltasRejected(photoID: 2, sequences: deltas.map(\.sequence), reason: "the name is too long.")))
        _ = state.apply(.tags(.tagCreationRejected(placeholderID: placeholder, reason: "the name is too long.")))
        #expect(state.library[1].tagIDs == [] && state.unsentTagDeltas == 0)
        #expect(state.tags.tag(id: placeholder) == nil)
        #expect(state.messages.current?.text == "Could not create the tag “Kyoto”: the name is too long.")
    }

    @Test func aTagAskedForByAnExistingNameIsThatTag() {
        var state = Sample.state(photos)
        let deltas = recorded(state.apply(.tags(.tagCreationRequested(name: "PRINT", color: nil, applyTo: [1, 2]))))
        #expect(deltas.map(\.tagID) == [3, 3])
        #expect(state.tags.pending.isEmpty)
    }

    @Test func theOutboxKeepsOneWishPerPhotoAndTag() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.down)))
        for _ in 0..<5 { _ = state.apply(.tags(.tagNumberPressed(2))) }
        #expect(state.unsentTagDeltas == 1, "five presses, one wish: the last")
        #expect(state.tagging.pending[2]?.map(\.change) == [.add])
        #expect(state.library[1].tagIDs == [2])
    }

    @Test func withoutASelectionTheCurrentPhotoIsTagged() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.down)))
        let deltas = recorded(state.apply(.tags(.tagNumberPressed(2))))
        #expect(deltas.map(\.photoID) == [2])
        #expect(state.library[1].tagIDs == [2])
    }

    @Test func undoRecordsTheInverseOfTheLastEditOnlyWhereItChangedSomething() {
        var state = Sample.state(photos)
        _ = state.apply(.selection(.allMatchingSelected))
        _ = state.apply(.tags(.tagNumberPressed(1)))
        let undone = recorded(state.apply(.undoRequested))
        #expect(undone.map(\.photoID) == [2])
        #expect(undone.first?.change == .remove)
        #expect(state.library[0].tagIDs == [1] && state.library[1].tagIDs == [] && state.library[2].tagIDs == [1])
        #expect(recorded(state.apply(.undoRequested)).isEmpty)
    }

    @Test func aRejectedDeltaIsUndoneOnScreenAndSaysWhy() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.down)))
        let delta = recorded(state.apply(.tags(.tagNumberPressed(3))))[0]
        _ = state.apply(.tags(.tagDeltasRejected(photoID: 2, sequences: [delta.sequence], reason: "the photo no longer exists.")))
        #expect(state.library[1].tagIDs == [])
        #expect(state.unsentTagDeltas == 0)
        #expect(state.messages.current?.severity == .error)
        #expect(state.messages.current?.text.contains("the photo no longer exists") == true)
    }

    @Test func aConfirmedDeltaShowsTheServerSetWithLaterEditsOnTop() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.down)))
        let first = recorded(state.apply(.tags(.tagNumberPressed(1))))[0]
        _ = state.apply(.tags(.tagNumberPressed(2)))
        // Meanwhile someone else added tag 3 on the server.
        _ = state.apply(.tags(.tagDeltasSent(photoID: 2, sequences: [first.sequence], serverTagIDs: [3, 1])))
        #expect(Set(state.library[1].tagIDs) == [1, 2, 3])
        #expect(state.unsentTagDeltas == 1)
        #expect(state.library.count(ofTag: 3) == 1)
    }

    @Test func taggingIsRefusedWithAReasonWhenTheKeyLacksPhotosWrite() throws {
        var state = Sample.state(photos)
        let json = #"{"apiKeyId": 1, "customerId": 1, "name": "read only", "scopes": ["photos:read", "tags:read"], "rateLimit": {"limit": 300, "remaining": 299, "reset": 0}}"#
        _ = state.apply(.status(.accountLoaded(try JSONDecoder().decode(Me.self, from: Data(json.utf8)))))
        #expect(state.messages.current?.text.contains("Tagging is read-only") == true)
        #expect(recorded(state.apply(.tags(.tagNumberPressed(1)))).isEmpty)
        #expect(state.apply(.tags(.tagCreationRequested(name: "New", color: nil))).allSatisfy { if case .createTag = $0 { false } else { true } })
        #expect(state.messages.current?.text.contains("tags:write") == true)
    }

    @Test func numberKeysBeyondTheTagsSayHowManyThereAre() {
        var state = Sample.state(photos)
        #expect(recorded(state.apply(.tags(.tagNumberPressed(7)))).isEmpty)
        #expect(state.messages.current?.text.contains("there are 3 tags") == true)
    }

    @Test func deletingATagTakesItOffEveryPhotoAndOutOfTheOutbox() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.cursorMoved(.down)))
        _ = state.apply(.tags(.tagNumberPressed(1)))
        let effects = state.apply(.tags(.tagDeleted(id: 1)))
        #expect(effects.contains(.discardTagDeltas(tagID: 1)))
        #expect((0..<3).allSatisfy { !state.library[$0].tagIDs.contains(1) })
        #expect(state.unsentTagDeltas == 0)
        #expect(state.tags.tag(id: 1) == nil)
    }
}
