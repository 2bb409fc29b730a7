import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// The session's timers run on the clock it is given: a test moves that clock and sees each one end
/// exactly when it should, and nothing waits for real time.
@Suite(.timeLimit(.minutes(1))) @MainActor struct SessionClockTests {
    /// Pages of the photo listing the server answered.
    private func pages(_ log: LineLog) -> Int {
        log.lines.filter { $0.split(separator: " ").dropFirst().first == "/api/v1/photos" }.count
    }

    @Test func aNoticeStaysItsLifetimeOnTheSessionsClockAndThenGoes() async throws {
        try await TestServer.with(photos: 5) { server, _ in
            let clock = TestClock()
            try await withSession(server, clock: clock) { session in
                try await session.waitForLibrary()
                session.send(.status(.noticePosted(.info, "Copied “a.jpg” to the clipboard.")))
                #expect(session.state.message?.text == "Copied “a.jpg” to the clipboard.")
                // withSession gives messages a minute.
                await clock.sleeper(until: clock.now.advanced(by: .seconds(60)))
                clock.advance(by: .seconds(59))
                #expect(session.state.message?.text == "Copied “a.jpg” to the clipboard.", "a second before its minute is up")
                clock.advance(by: .seconds(1))
                try await session.waitUntil("the notice to go") { $0.message == nil }
            }
        }
    }

    @Test func anHourlyLibraryIsWalkedAgainOnTheHourOfTheSessionsClock() async throws {
        let log = LineLog()
        try await TestServer.with(photos: 30, { $0.requestLog = { log.append($0) } }) { server, _ in
            let clock = TestClock()
            try await withSession(server, clock: clock, refresh: .hourly) { session in
                try await session.waitForLibrary()
                #expect(session.state.loading.asOf == Timekeeper.testEpoch, "a first start walks at once")
                let walks = pages(log)
                await clock.sleeper(until: clock.now.advanced(by: .seconds(3600)))
                clock.advance(by: .seconds(3599))
                #expect(pages(log) == walks, "no walk before the hour")
                clock.advance(by: .seconds(1))
                try await session.waitUntil("the hourly walk") { $0.loading.asOf == Timekeeper.testEpoch.addingTimeInterval(3600) }
                #expect(pages(log) == walks + 1)
                #expect(session.state.library.count == 30)
            }
        }
    }

    @Test func aWriteTheServerCannotTakeIsTriedAgainAfterBackoffsThatDoubleOnTheSessionsClock() async throws {
        let data = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try await TestServer.start(photos: 5) { $0.dataDirectory = data }
        let port = first.port
        let clock = TestClock()
        try await withSession(first, clock: clock, retryPolicy: .never) { session in
            try await session.waitForLibrary()
            let photo = try #require(session.state.currentPhoto).id
            await first.stop()
            session.send(.tags(.tagToggled(tagID: 1)))
            #expect(session.state.unsentTagDeltas == 1, "written to the outbox before the key returns")
            // With no server, each round waits 1 s, then 2, then 4 on the session's clock before trying again.
            for seconds in [1, 2, 4] {
                await clock.sleeper(until: clock.now.advanced(by: .seconds(seconds)))
                #expect(session.state.unsentTagDeltas == 1)
                clock.advance(by: .seconds(seconds))
            }
            let second = try await TestServer.start(photos: 5) { $0.dataDirectory = data; $0.port = port }
            defer { Task { await second.stop() } }
            await clock.sleeper(until: clock.now.advanced(by: .seconds(8)))
            clock.advance(by: .seconds(8))
            try await session.waitUntil("the write to reach the server") { $0.unsentTagDeltas == 0 }
            #expect(try await APICaller(server: second).get("/photos/\(photo)").json["tagIds"].array.compactMap(\.int).contains(1))
        }
    }
}
