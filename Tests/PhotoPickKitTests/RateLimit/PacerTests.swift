import Foundation
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// One pacer for the whole client: no retry storm, however many tasks share it.
struct PacerTests {
    @Test func fiftyConcurrentTasksCauseNoRetryStorm() async throws {
        // 20 requests per 2-second window: fifty calls need three windows.
        try await withKitServer(photos: 60, { $0.rateLimit = 20; $0.rateLimitWindow = 2 }) { _, client, log in
            let ids = try await withThrowingTaskGroup(of: Int.self) { group in
                for id in 1...50 { group.addTask { try await client.send(API.photo(id: id)).id } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(Set(ids) == Set(1...50))
            let requests = log.requests("GET /api/v1/photos/")
            let refused = requests.filter { $0.contains(" 429 ") }
            #expect(requests.count <= 53, "the server saw \(requests.count) requests for 50 calls")
            #expect(refused.count <= 3)
        }
    }

    @Test func aRefusalHoldsEveryTaskUntilTheReset() async throws {
        // Early in a 15-second window, the budget is spent behind the client's back, so its first calls meet a 429.
        // Ten seconds or more of the window are left for that, so a machine busy with the whole suite cannot let
        // it turn meanwhile.
        try await withKitServer(photos: 60, { $0.rateLimit = 5; $0.rateLimitWindow = 15 }) { server, client, log in
            // Windows are aligned to Unix time: start in a window's first five seconds, once the server is up.
            let fraction = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 15)
            if fraction > 5 { try await Task.sleep(for: .milliseconds(Int((15 - fraction) * 1000) + 20)) }
            let caller = APICaller(server: server)
            while try await caller.get("/me").status != 429 {}
            let before = log.lines.count
            let ids = try await withThrowingTaskGroup(of: Int.self) { group in
                for id in 1...10 { group.addTask { try await client.send(API.photo(id: id)).id } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(ids.count == 10)
            let mine = log.lines.dropFirst(before)
            #expect((1...2).contains(mine.filter { $0.contains(" 429 ") }.count), "after the first 429, the rest waited for the reset")
        }
    }

    @Test func publishesItsStateForTheStatusBar() async throws {
        try await withKitServer(photos: 5, { $0.rateLimit = 50 }) { _, client, _ in
            let updates = await client.rateLimitUpdates()
            _ = try await client.send(API.me())
            try await client.shutdown()  // ends the stream, so reading it cannot hang
            var known: RateLimitState?
            for await state in updates where state.limit != nil { known = state }
            #expect(known?.limit == 50)
            #expect((0...49).contains(known?.remaining ?? -1))
            #expect(known?.reset.map { $0 > Date() } == true)
        }
    }

    @Test func aServerWithoutAResetHeaderCanRaiseTheBudgetAgain() async throws {
        let pacer = RateLimitPacer()
        try await pacer.admit()
        await pacer.record(status: 200, headers: ["X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "0"])
        try await pacer.admit()  // nothing in flight and no reset known: one goes out to learn
        await pacer.record(status: 200, headers: ["X-RateLimit-Limit": "10", "X-RateLimit-Remaining": "5"])
        // Five more fit the budget the server now reports; none of them waits for a response.
        let done = LineLog()
        let admissions = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<5 { group.addTask { try await pacer.admit() } }
                try await group.waitForAll()
            }
            done.append("admitted")
        }
        // Generous for a loaded machine; without the fix the admissions never finish at all.
        #expect(try await eventually(within: .seconds(30)) { done.lines == ["admitted"] })
        admissions.cancel()
        #expect(await pacer.state.remaining == 0)
    }

    @Test func aHoldPastTheDeadlineFailsInsteadOfWaiting() async throws {
        let pacer = RateLimitPacer()
        try await pacer.admit()
        await pacer.record(status: 429, headers: ["Retry-After": "120"])
        await #expect(throws: RateLimitPacer.HoldOutlastsDeadline.self) {
            try await pacer.admit(deadline: Date().addingTimeInterval(5))
        }
    }
}
