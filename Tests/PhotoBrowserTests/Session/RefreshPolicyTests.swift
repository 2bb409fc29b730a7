import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// When a start walks the library: the policy, the age of the last complete walk, and a walk left unfinished.
@Suite struct RefreshPolicyTests {
    private func start(_ policy: RefreshPolicy, completedAgo: TimeInterval?, unfinished: Bool = false) -> (BrowserState, [BrowserEffect]) {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp"), refreshPolicy: policy)
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        var snapshot = Catalogue.Snapshot()
        snapshot.photos = [Sample.photo(1, "a.jpg"), Sample.photo(2, "b.jpg")]
        snapshot.completedAt = completedAgo.map { Sample.now.addingTimeInterval(-$0) }
        if unfinished { snapshot.walk = Catalogue.Walk(generation: 3, cursor: "c", seen: 2) }
        let effects = state.apply(.catalogue(.catalogueLoaded(snapshot, notice: nil, at: Sample.now)))
        return (state, effects)
    }

    @Test func hourlyWalksWhenTheLastWalkIsAnHourOldAndOtherwiseWaitsForTheHour() {
        let (recent, waits) = start(.hourly, completedAgo: 600)
        #expect(recent.loading.phase == .complete && recent.library.count == 2)
        #expect(!waits.contains(.walkLibrary))
        let due = waits.compactMap { effect -> Duration? in
            if case .scheduleRefresh(let after) = effect { return after }
            return nil
        }
        #expect(due.count == 1 && abs(due[0] / .seconds(1) - 3000) < 5, "\(due)")
        let (old, walks) = start(.hourly, completedAgo: 7200)
        #expect(walks.contains(.walkLibrary) && old.loading.isRefresh)
        #expect(old.loadSummary.hasPrefix("2 photos as of 2 h ago · refreshing"))
    }

    @Test func onStartAlwaysWalksManualOnlyWhenAskedOrUnfinished() {
        #expect(start(.onStart, completedAgo: 10).1.contains(.walkLibrary))
        var (manual, effects) = start(.manual, completedAgo: 86_400 * 3)
        #expect(!effects.contains(.walkLibrary) && manual.loadSummary == "2 photos as of 3 d ago")
        #expect(manual.apply(.catalogue(.refreshDue)).isEmpty, "the hourly timer does nothing under manual")
        #expect(manual.apply(.catalogue(.refreshRequested)).contains(.walkLibrary))
        #expect(manual.apply(.catalogue(.refreshRequested)).contains(.walkLibrary) == false, "one walk at a time")
        #expect(start(.manual, completedAgo: 60, unfinished: true).1.contains(.walkLibrary), "an interrupted walk resumes")
        // Photos from a walk that never completed are a listing under way, not a library "as of".
        let (first, _) = start(.manual, completedAgo: nil, unfinished: true)
        #expect(first.loadSummary == "2 of ? loaded…")
    }

    /// Time comes with the events, so the reducer's answer depends on them alone: a snapshot completed
    /// at noon, read at 13:30, is due under hourly; the library is "as of" the moment the walk finished.
    @Test func theReducerTakesTimeFromItsEvents() {
        let noon = Date(timeIntervalSince1970: 1_800_000_000)
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp"), refreshPolicy: .hourly)
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        var snapshot = Catalogue.Snapshot()
        snapshot.photos = [Sample.photo(1, "a.jpg")]
        snapshot.completedAt = noon
        #expect(state.apply(.catalogue(.catalogueLoaded(snapshot, notice: nil, at: noon.addingTimeInterval(5_400)))).contains(.walkLibrary))
        #expect(state.apply(.catalogue(.photosFinished(deleted: [], at: noon.addingTimeInterval(5_460)))).first == .releaseFreedMemory,
                "what decoding the pages dropped goes back to the system")
        #expect(state.loading.summary(count: 1, now: noon.addingTimeInterval(5_460 + 7_200)) == "1 photo as of 2 h ago")
    }
}
