import Foundation
import NIOHTTP1
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Retries: which failures, how long to wait, and what is never repeated.
struct RetryTests {
    /// Rate-limit tests use 2-second windows; they start early in one so the count is predictable.
    private func startEarlyInAWindow() async throws {
        let fraction = Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 2)
        if fraction > 0.5 { try await Task.sleep(for: .milliseconds(Int((2 - fraction) * 1000) + 20)) }
    }

    @Test func retriesAfterRetryAfterSeconds() async throws {
        // Injected 429s say `Retry-After: 1`: each one costs a whole second, for every task.
        try await withKitServer(photos: 10, { $0.faultRate = 0.3; $0.faults = [.rateLimited] }) { _, client, log async throws in
            let started = ContinuousClock.now
            for id in 1...10 { #expect(try await client.send(API.photo(id: id)).id == id) }
            let refusals = log.lines.filter { $0.contains(" 429 ") }.count
            #expect(refusals >= 1, "the seed injects some 429s")
            #expect(ContinuousClock.now - started >= .milliseconds(950 * refusals))
        }
    }

    @Test func retriesAfterRetryAfterAsAnHTTPDate() async throws {
        try await withKitServer(photos: 10, { $0.faultRate = 0.3; $0.faults = [.rateLimited]; $0.retryAfterAsDate = true }) { _, client, log async throws in
            for id in 1...10 { #expect(try await client.send(API.photo(id: id)).id == id) }
            #expect(log.lines.contains { $0.contains(" 429 ") }, "the seed injects some 429s")
            #expect(log.lines.filter { $0.contains(" 200 ") }.count == 10)
        }
    }

    @Test func aSpentBudgetIsWaitedOutNotRefused() async throws {
        try await startEarlyInAWindow()
        try await withKitServer(photos: 5, { $0.rateLimit = 2; $0.rateLimitWindow = 2 }) { _, client, log async throws in
            let started = Date()
            for _ in 0..<3 { _ = try await client.send(API.photo(id: 1)) }
            #expect(Date().timeIntervalSince(started) > 0.5, "the third call waited for the next window")
            #expect(log.requests("GET /api/v1/photos/1 429").isEmpty, "the pacer knew the budget was spent")
        }
    }

    @Test func absurdRetryAfterValuesAreClampedNotTrusted() {
        let now = Date()
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
        try await withKitServer(photos: 50, { $0.faultRate = 0.3; $0.faults = [.internalError, .unavailable, .reset] }) { _, client, log async throws in
            for id in 1...50 { #expect(try await client.send(API.photo(id: id)).id == id) }
            #expect(log.lines.contains { $0.contains(" 500 ") || $0.contains(" 503 ") || $0.contains(" reset ") })
        }
    }

    @Test func aReadTimeoutIsRetried() async throws {
        // Two seconds' timeout against six-second stalls: a busy machine running the whole suite on two cores
        // can take a second to answer a call that was not stalled. Ten tries, so that every try of one call
        // stalling (0.3^10) cannot happen by chance, where five (0.3^5 over ten calls, 2%) did.
        try await withKitServer(photos: 10, { $0.faultRate = 0.3; $0.faults = [.slow]; $0.latency = .seconds(6) }) { server, _, _ in
            let clientLog = LineLog()
            let patient = RetryPolicy(maximumAttempts: 10, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200), deadline: .seconds(120))
            let client = APIClient.forTesting(server, retryPolicy: patient, log: clientLog, readTimeout: .seconds(2))
            for id in 1...10 { #expect(try await client.send(API.photo(id: id)).id == id) }
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
