import Foundation
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// The per-key budget and its headers, on a test clock: it starts on a window boundary and stands still,
/// so a count never straddles two windows, and a window turns when the test advances it.
struct RateLimitTests {
    private let clock = TestClock()

    @Test func everyResponseCarriesTheBudgetCountingDown() async throws {
        try await TestServer.with(photos: 5, { $0.rateLimit = 10; $0.clock = clock }) { _, api in
            var remaining: [Int] = []
            for path in ["/photos/1", "/photos/999", "/tags", "/me"] {
                let result = try await api.get(path)
                #expect(result.header("X-RateLimit-Limit") == "10")
                #expect(result.header("X-RateLimit-Reset").flatMap(Int.init) != nil)
                remaining.append(Int(result.header("X-RateLimit-Remaining") ?? "") ?? -1)
            }
            #expect(remaining == [9, 8, 7, 6], "errors count against the budget too")
        }
    }

    @Test func anExhaustedBudgetIs429WithRetryAfterSeconds() async throws {
        try await TestServer.with(photos: 5, { $0.rateLimit = 3; $0.clock = clock }) { _, api in
            for _ in 0..<3 { #expect(try await api.get("/photos/1").status == 200) }
            let limited = try await api.get("/photos/1")
            #expect(limited.status == 429)
            #expect(limited.errorCode == "rate_limited")
            #expect(limited.header("X-RateLimit-Remaining") == "0")
            let wait = try #require(limited.header("Retry-After").flatMap(Int.init))
            #expect((1...60).contains(wait))
            let reset = try #require(limited.header("X-RateLimit-Reset").flatMap(Int.init))
            #expect(reset - TestClock.epochSeconds == wait, "the first window ends a minute after the clock's start")
        }
    }

    @Test func aShortWindowResetsOnItsBoundary() async throws {
        try await TestServer.with(photos: 5, { $0.rateLimit = 2; $0.rateLimitWindow = 4; $0.clock = clock }) { _, api in
            clock.advance(by: .seconds(5))  // into the second window, so its alignment shows
            var result = try await api.get("/photos/1")
            while result.status != 429 { result = try await api.get("/photos/1") }
            let reset = try #require(result.header("X-RateLimit-Reset").flatMap(Int.init))
            #expect(reset % 4 == 0, "windows are aligned to multiples of their length")
            #expect(reset == TestClock.epochSeconds + 8)
            clock.advance(by: .milliseconds(2_999))
            #expect(try await api.get("/photos/1").status == 429, "the window has not turned yet")
            clock.advance(by: .milliseconds(1))
            #expect(try await api.get("/photos/1").status == 200, "a new window has a new budget")
        }
    }

    @Test func budgetsArePerKey() async throws {
        let other = try KeySpec(parsing: "pp_test_secondkey")
        try await TestServer.with(photos: 5, { $0.rateLimit = 2; $0.keys = [try! KeySpec(parsing: "pp_test_firstkey"), other]; $0.clock = clock }) { _, api in
            for _ in 0..<3 { _ = try await api.get("/photos/1") }
            #expect(try await api.get("/photos/1").status == 429)
            #expect(try await api.with(key: other.key).get("/photos/1").status == 200)
        }
    }

    @Test func retryAfterCanBeAnHTTPDate() async throws {
        try await TestServer.with(photos: 5, { $0.rateLimit = 1; $0.retryAfterAsDate = true; $0.clock = clock }) { _, api in
            _ = try await api.get("/photos/1")
            let limited = try await api.get("/photos/1")
            #expect(limited.status == 429)
            let text = try #require(limited.header("Retry-After"))
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = try #require(formatter.date(from: text))
            #expect(date.timeIntervalSince1970 == Double(TestClock.epochSeconds + 60), "the end of the clock's first window")
        }
    }

    @Test func refusalsForAKnownKeyCarryTheBudgetToo() async throws {
        let elsewhere = try KeySpec(parsing: "pp_test_elsewhere@192.0.2.7")
        try await TestServer.with(photos: 5, { $0.rateLimit = 10; $0.keys = [elsewhere]; $0.clock = clock }) { _, api in
            let refused = try await api.get("/photos/1")
            #expect(refused.errorCode == "ip_not_whitelisted")
            #expect(refused.header("X-RateLimit-Remaining") == "10", "a refused source does not spend the budget")
            #expect(refused.header("X-RateLimit-Reset") != nil)
        }
        try await TestServer.with(photos: 5, { $0.rateLimit = 10; $0.faultRate = 1; $0.faults = [.rateLimited] }) { _, api in
            let injected = try await api.get("/photos/1")
            #expect(injected.status == 429)
            #expect(injected.header("X-RateLimit-Limit") == "10")
            #expect(injected.header("X-RateLimit-Reset") != nil)
        }
        try await TestServer.with(photos: 5) { _, api in
            let anonymous = try await api.with(key: nil).get("/photos/1")
            #expect(anonymous.status == 401)
            #expect(anonymous.header("X-RateLimit-Limit") == nil, "no key, no budget to report")
        }
    }
}
