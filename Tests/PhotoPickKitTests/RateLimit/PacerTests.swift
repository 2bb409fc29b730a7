import Foundation
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// One pacer for the whole client: no retry storm, however many tasks share it. The server and client
/// share a test clock, which moves on to the next wait's end whenever nothing else is happening.
struct PacerTests {
    @Test func fiftyConcurrentTasksCauseNoRetryStorm() async throws {
        // 20 requests per 2-second window: fifty calls need three windows.
        let clock = TestClock()
        try await withKitServer(photos: 60, { $0.rateLimit = 20; $0.rateLimitWindow = 2 }, clock: clock) { _, client, log in
            let ids = try await clock.advancingWhenIdle {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for id in 1...50 { group.addTask { try await client.send(API.photo(id: id)).id } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
            #expect(clock.elapsed >= .seconds(4), "three windows")
            #expect(Set(ids) == Set(1...50))
            let requests = log.requests("GET /api/v1/photos/")
            let refused = requests.filter { $0.contains(" 429 ") }
            #expect(requests.count <= 53, "the server saw \(requests.count) requests for 50 calls")
            #expect(refused.count <= 3)
        }
    }

    @Test func aRefusalHoldsEveryTaskUntilTheReset() async throws {
        // Early in a 15-second window (the test clock starts on one and stands still until moved), the budget
        // is spent behind the client's back, so the client's first calls meet a 429.
        let clock = TestClock()
        try await withKitServer(photos: 60, { $0.rateLimit = 5; $0.rateLimitWindow = 15 }, clock: clock) { server, client, log in
            let caller = APICaller(server: server)
            while try await caller.get("/me").status != 429 {}
            // Five seconds before the reset, so the second window's wait ends within the calls' deadline.
            clock.advance(by: .seconds(10))
            let before = log.lines.count
            let ids = try await clock.advancingWhenIdle {
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for id in 1...10 { group.addTask { try await client.send(API.photo(id: id)).id } }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
            #expect(clock.elapsed >= .seconds(15), "the rest waited for the reset")
            #expect(ids.count == 10)
            let mine = log.lines.dropFirst(before)
            #expect((1...2).contains(mine.filter { $0.contains(" 429 ") }.count), "after the first 429, the rest waited for the reset")
        }
    }

    @Test func publishesItsStateForTheStatusBar() async throws {
        try await withKitServer(photos: 5, { $0.rateLimit = 50 }) { _, client, _ in
            let updates = await client.rateLimitUpdates()
            // The reset is after the moment asked; under load the window may well have passed by the check.
            let asked = Date()
            _ = try await client.send(API.me())
            try await client.shutdown()  // ends the stream, so reading it cannot hang
            var known: RateLimitState?
            for await state in updates where state.limit != nil { known = state }
            #expect(known?.limit == 50)
            #expect((0...49).contains(known?.remaining ?? -1))
            #expect(known?.reset.map { $0 > asked } == true)
        }
    }

    @Test(.timeLimit(.minutes(1))) func aServerWithoutAResetHeaderCanRaiseTheBudgetAgain() async throws {
        let clock = TestClock()  // never advanced: no admission may wait for time to pass
        let pacer = RateLimitPacer(time: Timekeeper(clock))
        try await pacer.admit()
        await pacer.record(status: 200, headers: ["X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "0"])
        try await pacer.admit()  // nothing in flight and no reset known: one goes out to learn
        await pacer.record(status: 200, headers: ["X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "5"])
        // Five more fit the budget the server now reports; none of them waits for a response.
        // Without the fix the admissions never finish at all; the time limit ends the test then.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<5 { group.addTask { try await pacer.admit() } }
            try await group.waitForAll()
        }
        #expect(await pacer.state.remaining == 0)
    }

    @Test func aHoldPastTheDeadlineFailsInsteadOfWaiting() async throws {
        let clock = TestClock()  // never advanced: the admission must fail, not wait
        let pacer = RateLimitPacer(time: Timekeeper(clock))
        try await pacer.admit()
        await pacer.record(status: 429, headers: ["Retry-After": "120"])
        await #expect(throws: RateLimitPacer.HoldOutlastsDeadline.self) {
            try await pacer.admit(deadline: Timekeeper.testEpoch.addingTimeInterval(5))
        }
    }
}
