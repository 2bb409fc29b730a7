import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// A refresh asks the last walk's tail first, so new photos come in a request or two, then checks the
/// rest a page every `RefreshPace` interval on the session's clock.
@Suite(.timeLimit(.minutes(2))) struct RefreshTailTests {
    /// Pages of the photo listing the server answered.
    private func pages(_ log: LineLog) -> Int {
        log.lines.filter { $0.split(separator: " ").dropFirst().first == "/api/v1/photos" }.count
    }

    @Test func theCheckOfALargeLibraryKeepsToATenthOfTheBudget() {
        #expect(RefreshPace.interval(photos: 2_000, limit: 300) == nil, "20 pages fit in a tenth of one window")
        #expect(RefreshPace.interval(photos: 1_000_000, limit: 300) == .seconds(2), "a page every 2 s: 10,000 pages in 5 h 33 min")
        #expect(RefreshPace.interval(photos: 1_000_000, limit: nil) == .seconds(2))
    }

    @Test @MainActor func newPhotosComeFromTheTailAndTheRestIsCheckedAPageEveryTwoSeconds() async throws {
        let log = LineLog()
        let state = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        try await TestServer.with(photos: 3_200, { $0.rateLimit = 300; $0.requestLog = { log.append($0) } }) { server, _ in
            try await withSession(server, state: state) { session in try await session.waitForLibrary() }
            let added = [try #require(try await server.addPhoto(copying: 3)), try #require(try await server.addPhoto(copying: 4))]
            let before = pages(log)
            let clock = TestClock()
            try await withSession(server, state: state, clock: clock) { session in
                try await session.waitUntil("the new photos") { state in added.allSatisfy { state.library.index(ofID: $0) != nil } }
                #expect(pages(log) - before <= 3, "the tail's two pages (its last, then the new photos), and the check's first")
                // The check waits 2 s on the session's clock between pages: 33 pages, 32 waits.
                for _ in 0..<32 {
                    await clock.sleeper(until: clock.now.advanced(by: .seconds(2)))
                    clock.advance(by: .seconds(2))
                }
                try await session.waitUntil("the check") { $0.loading.phase == .complete }
                #expect(clock.elapsed == .seconds(64))
                #expect(session.state.library.count == 3_202)
            }
            #expect(pages(log) - before == 35)
        }
    }
}
