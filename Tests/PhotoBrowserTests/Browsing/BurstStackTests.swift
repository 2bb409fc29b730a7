import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

@Suite struct BurstStackTests {
    /// Two bodies shooting at once, ties, a gap of exactly two seconds, and photos without a time or a camera.
    let photos = [
        Sample.photo(1, "a1.jpg", takenAt: 100.0, camera: "A"),
        Sample.photo(2, "b1.jpg", takenAt: 100.2, camera: "B"),
        Sample.photo(3, "a2.jpg", takenAt: 100.5, camera: "A"),
        Sample.photo(4, "b2.jpg", takenAt: 100.9, camera: "B"),
        Sample.photo(5, "a3.jpg", takenAt: 102.5, camera: "A"),   // 2.0 s after a2: still the burst
        Sample.photo(6, "a4.jpg", takenAt: 104.6, camera: "A"),   // 2.1 s after a3: a new start
        Sample.photo(7, "t1.jpg", takenAt: 200, camera: "A"),
        Sample.photo(8, "t2.jpg", takenAt: 200, camera: "A"),     // the same second: a burst of two
        Sample.photo(9, "nodate.jpg", takenAt: nil, camera: "A"),
        Sample.photo(10, "nocamera1.jpg", takenAt: 300),
        Sample.photo(11, "nocamera2.jpg", takenAt: 300.5),
    ]

    @Test func stacksComeFromCaptureTimesPerCamera() {
        let state = Sample.state(photos)
        let stacks = BurstStacks(state.library, gap: 2)
        let members = (0..<stacks.count).map { stacks.members(of: $0).map { state.library[$0].filename } }
        #expect(Set(members) == [["a1.jpg", "a2.jpg", "a3.jpg"], ["t1.jpg", "t2.jpg"], ["b1.jpg", "b2.jpg"]])
        for name in ["a4.jpg", "nodate.jpg", "nocamera1.jpg", "nocamera2.jpg"] {
            let index = state.library.index(ofID: photos.first { $0.filename == name }!.id)!
            #expect(stacks.stack(of: index) == nil, "\(name)")
        }
    }

    @Test func aClosedStackShowsAsItsFirstPhotoWithACountAndOpens() throws {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.stackingToggled))
        #expect(state.messages.current?.text.hasPrefix("Bursts stacked: 3 stacks") == true)
        #expect(state.listedNames == ["a1.jpg", "b1.jpg", "a4.jpg", "t1.jpg", "nocamera1.jpg", "nocamera2.jpg", "nodate.jpg"])
        #expect((0..<state.list.count).map { state.list.stackCount(at: $0) } == [3, 2, nil, 2, nil, nil, nil])
        _ = state.apply(.browsing(.stackOpened))
        #expect(state.listedNames.prefix(5) == ["a1.jpg", "b1.jpg", "a2.jpg", "a3.jpg", "a4.jpg"])
        #expect(state.list.stackCount(at: 0) == nil, "an open stack lists its photos, no count")
        // Closing it from one of its later photos puts the cursor back on the cover.
        _ = state.apply(.browsing(.cursorMoved(.position(2))))
        #expect(state.currentName == "a2.jpg")
        _ = state.apply(.browsing(.stackOpened))
        #expect(state.currentName == "a1.jpg")
        #expect(state.list.count == 7)
        _ = state.apply(.browsing(.stackingToggled))
        #expect(state.list.count == 11)
    }

    @Test func aMarkOnAClosedStackMarksThePhotoShown() {
        var state = MarkTests.state(photos)
        _ = state.apply(.browsing(.stackingToggled))
        let effects = state.apply(.tags(.markChosen(.flag(.pick))))
        let ids = effects.flatMap { effect -> [Int] in
            if case .recordTagDeltas(let deltas) = effect { return deltas.map(\.photoID) }
            return []
        }
        #expect(ids == [1])
    }

    @Test func theFilterRunsFirstAndAStackOfOneIsAPhoto() {
        var state = Sample.state(photos)
        _ = state.apply(.browsing(.stackingToggled))
        _ = state.apply(.browsing(.filterTextChanged("-a1 -b1")))
        #expect(state.listedNames.prefix(3) == ["a2.jpg", "b2.jpg", "a4.jpg"])
        #expect(state.list.stackCount(at: 0) == 2 && state.list.stackCount(at: 1) == nil)
    }

    @Test func photosArrivingLaterJoinTheirStack() {
        var state = Sample.state(Array(photos.prefix(3)))
        _ = state.apply(.browsing(.stackingToggled))
        #expect(state.list.stackCount(at: 0) == 2)
        _ = state.apply(.catalogue(.photosArrived(Array(photos.dropFirst(3)), nextCursor: nil)))
        #expect(state.list.stackCount(at: 0) == 3)
        #expect(state.currentName == "a1.jpg")
    }
}
