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
            if case .recordTagDeltas(let deltas) = effect { return deltas }
            return []
        }
    }

    @Test func addsToThoseThatLackItUnlessAllHaveItThenRemovesFromAll() {
        var state = Sample.state(photos)
        _ = state.apply(.allMatchingSelected)
        let added = recorded(state.apply(.tagNumberPressed(1)))
        #expect(added.map(\.photoID) == [2])
        #expect(added.allSatisfy { $0.change == .add && $0.tagID == 1 })
        #expect(state.tags.count(of: 1) == 3)
        let removed = recorded(state.apply(.tagToggled(tagID: 1)))
        #expect(removed.map(\.photoID) == [1, 2, 3])
        #expect(removed.allSatisfy { $0.change == .remove })
        #expect(state.tags.count(of: 1) == 0)
        #expect(state.unsentTagDeltas == 4)
    }

    @Test func aTagCreatedForPhotosGoesOnThemOnceTheServerMadeIt() {
        var state = Sample.state(photos)
        let effects = state.apply(.tagCreationRequested(name: " Kyoto ", color: nil, applyTo: [1, 3]))
        #expect(effects.contains { if case .createTag(let name, _) = $0 { name == "Kyoto" } else { false } })
        #expect(recorded(effects).isEmpty, "nothing is tagged before the tag exists")
        // Another tag saved meanwhile (a rename) does not take the pending photos.
        #expect(recorded(state.apply(.tagSaved(PhotoPickKit.Tag(id: 1, name: "kyoto", color: nil)))).isEmpty)
        let added = recorded(state.apply(.tagSaved(PhotoPickKit.Tag(id: 9, name: "KYOTO", color: nil))))
        #expect(added.map(\.photoID) == [1, 3] && added.allSatisfy { $0.tagID == 9 && $0.change == .add })
        #expect(state.messages.current?.text == "Created the tag “KYOTO”. Tagged 2 photos “KYOTO”.")
        // Undo takes it off again, and a second save of the tag applies nothing more.
        #expect(recorded(state.apply(.undoRequested)).map(\.change) == [.remove, .remove])
        #expect(recorded(state.apply(.tagSaved(PhotoPickKit.Tag(id: 9, name: "KYOTO", color: "#123456")))).isEmpty)
    }

    @Test func aFailedCreationForgetsThePhotosItWasFor() {
        var state = Sample.state(photos)
        _ = state.apply(.tagCreationRequested(name: "Kyoto", color: nil, applyTo: [2]))
        _ = state.apply(.tagOperationFailed("Could not create the tag: the server did not answer."))
        #expect(recorded(state.apply(.tagSaved(PhotoPickKit.Tag(id: 9, name: "Kyoto", color: nil)))).isEmpty)
    }

    @Test func withoutASelectionTheCurrentPhotoIsTagged() {
        var state = Sample.state(photos)
        _ = state.apply(.cursorMoved(.down))
        let deltas = recorded(state.apply(.tagNumberPressed(2)))
        #expect(deltas.map(\.photoID) == [2])
        #expect(state.library[1].tagIDs == [2])
    }

    @Test func undoRecordsTheInverseOfTheLastEditOnlyWhereItChangedSomething() {
        var state = Sample.state(photos)
        _ = state.apply(.allMatchingSelected)
        _ = state.apply(.tagNumberPressed(1))
        let undone = recorded(state.apply(.undoRequested))
        #expect(undone.map(\.photoID) == [2])
        #expect(undone.first?.change == .remove)
        #expect(state.library[0].tagIDs == [1] && state.library[1].tagIDs == [] && state.library[2].tagIDs == [1])
        #expect(recorded(state.apply(.undoRequested)).isEmpty)
    }

    @Test func aRejectedDeltaIsUndoneOnScreenAndSaysWhy() {
        var state = Sample.state(photos)
        _ = state.apply(.cursorMoved(.down))
        let delta = recorded(state.apply(.tagNumberPressed(3)))[0]
        _ = state.apply(.tagDeltasRejected(photoID: 2, sequences: [delta.sequence], reason: "the photo no longer exists."))
        #expect(state.library[1].tagIDs == [])
        #expect(state.unsentTagDeltas == 0)
        #expect(state.messages.current?.severity == .error)
        #expect(state.messages.current?.text.contains("the photo no longer exists") == true)
    }

    @Test func aConfirmedDeltaShowsTheServerSetWithLaterEditsOnTop() {
        var state = Sample.state(photos)
        _ = state.apply(.cursorMoved(.down))
        let first = recorded(state.apply(.tagNumberPressed(1)))[0]
        _ = state.apply(.tagNumberPressed(2))
        // Meanwhile someone else added tag 3 on the server.
        _ = state.apply(.tagDeltasSent(photoID: 2, sequences: [first.sequence], serverTagIDs: [3, 1]))
        #expect(Set(state.library[1].tagIDs) == [1, 2, 3])
        #expect(state.unsentTagDeltas == 1)
        #expect(state.tags.count(of: 3) == 1)
    }

    @Test func taggingIsRefusedWithAReasonWhenTheKeyLacksPhotosWrite() throws {
        var state = Sample.state(photos)
        let json = #"{"apiKeyId": 1, "customerId": 1, "name": "read only", "scopes": ["photos:read", "tags:read"], "rateLimit": {"limit": 300, "remaining": 299, "reset": 0}}"#
        _ = state.apply(.accountLoaded(try JSONDecoder().decode(Me.self, from: Data(json.utf8))))
        #expect(state.messages.current?.text.contains("Tagging is read-only") == true)
        #expect(recorded(state.apply(.tagNumberPressed(1))).isEmpty)
        #expect(state.apply(.tagCreationRequested(name: "New", color: nil)).allSatisfy { if case .createTag = $0 { false } else { true } })
        #expect(state.messages.current?.text.contains("tags:write") == true)
    }

    @Test func numberKeysBeyondTheTagsSayHowManyThereAre() {
        var state = Sample.state(photos)
        #expect(recorded(state.apply(.tagNumberPressed(7))).isEmpty)
        #expect(state.messages.current?.text.contains("there are 3 tags") == true)
    }

    @Test func deletingATagTakesItOffEveryPhotoAndOutOfTheOutbox() {
        var state = Sample.state(photos)
        _ = state.apply(.cursorMoved(.down))
        _ = state.apply(.tagNumberPressed(1))
        let effects = state.apply(.tagDeleted(id: 1))
        #expect(effects.contains(.discardTagDeltas(tagID: 1)))
        #expect((0..<3).allSatisfy { !state.library[$0].tagIDs.contains(1) })
        #expect(state.unsentTagDeltas == 0)
        #expect(state.tags.tag(id: 1) == nil)
    }
}
