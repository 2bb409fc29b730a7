import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// A large library is filtered in the background: the key shows at once, the list as it was stays
/// marked as updating, and the result of the newest key is the one shown.
@Suite struct BackgroundFilterTests {
    private func state() -> BrowserState {
        var state = Sample.state((1...40).map { Sample.photo($0, $0 % 2 == 0 ? "even_\($0).jpg" : "odd_\($0).jpg", takenAt: Double($0)) })
        state.browsing.backgroundFiltering = 0
        return state
    }

    private func job(_ effects: [BrowserEffect]) throws -> FilterJob {
        let jobs = effects.compactMap { effect -> FilterJob? in if case .filterList(let job) = effect { job } else { nil } }
        return try #require(jobs.first)
    }

    @Test func theListWaitsMarkedUpdatingUntilTheFilterIsWorkedOut() throws {
        var state = state()
        _ = state.apply(.browsing(.cursorMoved(.position(8))))
        let pressed = try job(state.apply(.browsing(.filterTextChanged("even"))))
        #expect(state.list.filter.text == "even" && state.list.isUpdating, "the filter typed shows at once")
        #expect(state.list.count == 40 && state.currentName == "odd_9.jpg", "the list is the one before it")
        _ = state.apply(.browsing(.listFiltered(pressed.run())))
        #expect(!state.list.isUpdating && state.list.count == 20)
        #expect(state.currentName == "even_10.jpg", "the cursor goes to the next photo that passes")
    }

    @Test func aResultOfAnOlderKeyIsNotShown() throws {
        var state = state()
        let first = try job(state.apply(.browsing(.filterTextChanged("e"))))
        let second = try job(state.apply(.browsing(.filterTextChanged("ev"))))
        _ = state.apply(.browsing(.listFiltered(first.run())))
        #expect(state.list.isUpdating && state.list.count == 40, "superseded")
        _ = state.apply(.browsing(.listFiltered(second.run())))
        #expect(!state.list.isUpdating && state.list.count == 20)
    }

    @Test func photosThatCameMeanwhileAreTestedAndAChangeMeanwhileFiltersAgain() throws {
        var state = state()
        let pressed = try job(state.apply(.browsing(.filterTextChanged("even"))))
        _ = state.apply(.catalogue(.photosArrived([Sample.photo(41, "even_41.jpg", takenAt: 41), Sample.photo(43, "odd_43.jpg", takenAt: 43)], nextCursor: nil)))
        let again = state.apply(.browsing(.listFiltered(pressed.run())))
        #expect(state.list.count == 21 && state.listedNames.last == "even_41.jpg", "the new photo passes, in its place")
        #expect(again.isEmpty, "appends alone are tested one by one")
        let renamed = try job(state.apply(.browsing(.filterTextChanged("odd"))))
        var photo = state.library.photo(at: 0)
        photo.filename = "even_1.jpg"
        _ = state.apply(.catalogue(.photosArrived([photo], nextCursor: nil)))
        let follow = try job(state.apply(.browsing(.listFiltered(renamed.run()))))
        _ = state.apply(.browsing(.listFiltered(follow.run())))
        #expect(state.list.count == 20 && !state.listedNames.contains("even_1.jpg"), "worked out again from the library as it is")
    }
}
