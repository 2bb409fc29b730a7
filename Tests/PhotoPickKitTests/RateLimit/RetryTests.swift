import Foundation
import NIOHTTP1
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Retries: which failures, how long to wait, and what is never repeated. Waits run on a test clock the
/// server shares; one call at a time, so time jumps to each wait's end as soon as it begins.
struct RetryTests {
    @Test func retriesAfterRetryAfterSeconds() async throws {
        // Injected 429s say `Retry-After: 1`: each one costs a whole second, for every task.
        let clock = TestClock()
        try await withKitServer(photos: 10, { $0.faultRate = 0.3; $0.faults = [.rateLimited]; $0.faultRetryAfter = 1 }, clock: clock) { _, client, log async throws in
            try await clock.advancingOnEachSleep { () async throws in
                for id in 1...10 { #expect(try await client.send(API.photo(id: id)).id == id) }
            }
            let refusals = log.lines.filter { $0.contains(" 429 ") }.count
            #expect(refusals >= 1, "the seed injects some 429s")
            #expect(clock.elapsed >= .seconds(refusals))
        }
    }

    @Test func retriesAfterRetryAfterAsAnHTTPDate() async throws {
        let clock = TestClock()
        try await withKitServer(photos: 10, { $0.faultRate = 0.3; $0.faults = [.rateLimited]; $0.faultRetryAfter = 1; $0.retryAfterAsDate = true }, clock: clock) { _, client, log async throws in
            try await clock.advancingOnEachSleep { () async throws in
                for id in 1...10 { #expect(try await client.send(API.photo(id: id)).id == id) }
            }
            #expect(log.lines.contains { $0.contains(" 429 ") }, "the seed injects some 429s")
            #expect(log.lines.filter { $0.contains(" 200 ") }.count == 10)
        }
    }

    @Test func aSpentBudgetIsWaitedOutNotRefused() async throws {
        let clock = TestClock()  // starts on a window boundary
        try await withKitServer(photos: 5, { $0.rateLimit = 2; $0.rateLimitWindow = 2 }, clock: clock) { _, client, log async throws in
            try await clock.advancingOnEachSleep { () async throws in
                for _ in 0..<3 { _ = try await client.send(API.photo(id: 1)) }
            }
            #expect(clock.elapsed >= .seconds(2), "the third call waited for the next window")
            #expect(log.requests("GET /api/v1/photos/1 429").isEmpty, "the pacer knew the budget was spent")
        }
    }

    @Test func absurdRetryAfterValuesAreClampedNotTrusted() {
        let now = Timekeeper.testEpoch
        #expect(RetryAdvice.wait(in: ["Retry-After": "1e30"], orReset: false, now: now) == nil)
        #expect(RetryAdvice.wait(in: ["Retry-After": "inf"], orReset: false, now: now) == nil)
        #expect(RetryAdvice.wait(in: ["Retry-After": "99999999999"], now: now) == .seconds(3600))
        #expect(RetryAdvice.wait(in: ["X-RateLimit-Reset": "99999999999999999999"], now: now) == nil)
    }

    @Test func readsEveryFormOfRetryAdvice() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        #expect(RetryAdvice.wait(in: ["Retry-After": "7"], now: now) == .seconds(7))
        #expect(RetryAdvice.wait(in: ["Retry-After": "Fri, 15 Jan 2027 08:00:05 GMT"], now: now) == .seconds(5))
        #expect(RetryAdvice.wait(in: ["X-RateLimit-Reset": "1800000012"], now: now) == .seconds(12))
        #expect(RetryAdvice.wait(in: ["X-RateLimit-Reset": "30"], now: now) == .seconds(30), "a small reset is a delta")
        #expect(RetryAdvice.wait(in: ["Retry-After": "soon"], now: now) == nil)
    }

    @Test func backoffIsExponentialWithFullJitter() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), maximumDelay: .seconds(1))
        var generator = SystemRandomNumberGenerator()
        for attempt in 1...6 {
            let ceiling = min(Duration.seconds(1), .milliseconds(100) * (1 << (attempt - 1)))
            let samples = (0..<200).map { _ in policy.backoff(afterAttempt: attempt, using: &generator) }
            #expect(samples.allSatisfy { $0 >= .zero && $0 <= ceiling })
            #expect(samples.contains { $0 < ceiling / 4 } && samples.contains { $0 > ceiling * 3 / 4 }, "spread over 0...ceiling")
        }
    }

    @Test func serverFailuresAndResetsAreRetried() async throws {
        let clock = TestClock()
        try await withKitServer(photos: 50, { $0.faultRate = 0.3; $0.faults = [.internalError, .unavailable, .reset] }, clock: clock) { _, client, log async throws in
            try await clock.advancingOnEachSleep { () async throws in
                for id in 1...50 { #expect(try await client.send(API.photo(id: id)).id == id) }
            }
            #expect(log.lines.contains { $0.contains(" 500 ") || $0.contains(" 503 ") || $0.contains(" reset ") })
        }
    }

    @Test func aReadTimeoutIsRetried() async throws {
        // Stalls on a test clock last until the test ends them, so only the client's real timeout ends a stalled
        // try; a slow answer that was not stalled is tried again too. Ten tries, so that every try of one
        // call stalling (0.3^10) cannot happen by chance, where five (0.3^5 over ten calls, 2%) did. Five calls:
        // the server's faults follow its seed, and the first stalls twice, the fourth once. The
        // timeout is 2 s, not 1: beside two CPU-bound processes an answer that was not stalled took over
        // a second often enough to use up all ten tries.
        let clock = TestClock()
        try await withKitServer(photos: 10, { $0.faultRate = 0.3; $0.faults = [.slow]; $0.latency = .seconds(6) }, clock: clock) { server, _, _ in
            defer { clock.runFree() }  // ends the stalls, even those still on their way to the server, so it can stop
            let clientLog = LineLog()
            var patient = RetryPolicy.immediate
            patient.maximumAttempts = 10
            let client = APIClient.forTesting(server, clock: clock, retryPolicy: patient, log: clientLog, readTimeout: .seconds(2))
            for id in 1...5 { #expect(try await client.send(API.photo(id: id)).id == id) }
            try await client.shutdown()
            #expect(clientLog.lines.contains { $0.contains("did not answer within 2 s") }, "some calls stalled and were sent again")
        }
    }

    @Test func otherClientErrorsAreNotRetried() async throws {
        try await withKitServer(photos: 5) { _, client, log async throws in
            _ = try? await client.send(API.photo(id: 404))
            _ = try? await client.send(API.photos(limit: 1000))
            #expect(log.lines.count == 2)
        }
    }
}
