import Foundation
import NIOHTTP1
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Priority lanes: the user's requests go first, and the listing never spends the share kept for them.
/// Pacers run on a test clock that only the tests move: a wait for time would never end, so the time
/// limit catches it.
@Suite(.timeLimit(.minutes(1)))
struct LaneTests {
    private func headers(limit: Int, remaining: Int, resetIn seconds: Int) -> HTTPHeaders {
        HTTPHeaders([
            ("X-RateLimit-Limit", String(limit)), ("X-RateLimit-Remaining", String(remaining)),
            ("X-RateLimit-Reset", String(TestClock.epochSeconds + seconds)),
        ])
    }

    /// Waits for the pacer's state to satisfy `condition`, from its updates rather than by polling.
    private func state(of pacer: RateLimitPacer, where condition: @Sendable (RateLimitState) -> Bool) async {
        for await state in await pacer.updates() where condition(state) { return }
    }

    @Test func theListingStopsAtTheReserveAndTheUserStillGoesAtOnce() async throws {
        let clock = TestClock()
        let pacer = RateLimitPacer(reservedShare: 0.15, time: Timekeeper(clock))
        try await pacer.admit()
        await pacer.record(status: 200, headers: headers(limit: 100, remaining: 16, resetIn: 30))
        #expect(await pacer.state.reserved == 15)
        try await pacer.admit(lane: .listing)  // 16 left, 15 reserved: one more for the listing
        let listing = Task { try await pacer.admit(lane: .listing) }
        await state(of: pacer) { $0.pausedForReserve == [.listing] }
        #expect(await pacer.state.heldBack(now: Timekeeper.testEpoch) == "listing paused: 15 requests kept for you")
        for _ in 0..<3 { try await pacer.admit(lane: .user) }
        #expect(clock.elapsed == .zero, "the reserve is the user's, without waiting")
        listing.cancel()
        await #expect(throws: CancellationError.self) { try await listing.value }
        #expect(await pacer.state.pausedForReserve.isEmpty)
    }

    @Test @MainActor func waitingRequestsGoByLaneThenInArrivalOrder() async throws {
        let clock = TestClock()
        let pacer = RateLimitPacer(time: Timekeeper(clock))
        try await pacer.admit()
        // Nothing left until a reset a minute away: everyone queues, in a known arrival order, with no
        // clock to race. A response that opens a later window then lets them all go, in lane order.
        await pacer.record(status: 200, headers: headers(limit: 100, remaining: 0, resetIn: 60))
        let order = LineLog()
        var tasks: [Task<Void, any Error>] = []
        for (index, (name, lane)) in [("prefetch", RequestLane.prefetch), ("listing", .listing), ("download", .download),
                                      ("visible 1", .visible), ("user 1", .user), ("visible 2", .visible),
                                      ("user 2", .user)].enumerated() {
            // On the main actor, admitted tasks resume one at a time in the order the pacer let them go.
            tasks.append(Task { @MainActor in
                try await pacer.admit(lane: lane)
                order.append(name)
            })
            await state(of: pacer) { $0.waiting >= index + 1 }  // arrival order
        }
        #expect(order.lines.isEmpty, "nothing went before the reset")
        #expect(await pacer.state.waiting == 7, "all seven queued before the reset")
        await pacer.record(status: 200, headers: headers(limit: 100, remaining: 100, resetIn: 120))
        for task in tasks { try await task.value }
        #expect(clock.elapsed == .zero, "a fresh window with requests left ends the hold, without the old reset")
        #expect(order.lines == ["user 1", "user 2", "visible 1", "visible 2", "download", "listing", "prefetch"])
    }

    /// Server log lines with the Unix second each finished on the test clock, for windows and ordering.
    private final class TimedLog: Sendable {
        let log = LineLog()
        let clock: TestClock
        init(clock: TestClock) { self.clock = clock }
        func append(_ line: String) {
            log.append("\(Double(TestClock.epochSeconds) + clock.elapsed / .seconds(1)) \(line)")
        }
        var entries: [(time: Double, line: String)] {
            log.lines.map { line in
                let parts = line.split(separator: " ", maxSplits: 1)
                return (Double(parts[0])!, String(parts[1]))
            }
        }
    }

    @Test func whileAListingSaturatesTheBudgetTagWritesAndPreviewsGoFirst() async throws {
        // 40 requests per 3-second window, 6 of them kept for the user's lanes.
        let clock = TestClock()
        let timed = TimedLog(clock: clock)
        try await withKitServer(photos: 400, { configuration in
            configuration.rateLimit = 40
            configuration.rateLimitWindow = 3
            configuration.requestLog = { timed.append($0) }
        }, clock: clock) { _, client, _ in
            try await clock.advancingWhenIdle {
                let listing = Task {
                    try await RequestLane.$current.withValue(.listing) {
                        var pages = 0
                        for try await _ in PageStream<Photo>(client: client, pageSize: 2) { pages += 1 }
                        return pages
                    }
                }
                let updates = await client.rateLimitUpdates()
                for await state in updates where state.pausedForReserve.contains(.listing) { break }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for id in 1...20 {
                        group.addTask { _ = try await client.send(API.replacePhotoTags(id: id, tagIDs: [1])) }
                        group.addTask {
                            _ = try await RequestLane.$current.withValue(.visible) { try await client.fetchVariant(photoID: id, size: .web) }
                        }
                    }
                    try await group.waitForAll()
                }
                listing.cancel()
                _ = try? await listing.value
            }
            let entries = timed.entries
            func isAction(_ line: String) -> Bool { line.hasPrefix("PUT ") || line.hasSuffix("ms") && line.contains("/download ") }
            let first = try #require(entries.firstIndex { isAction($0.line) })
            let last = try #require(entries.lastIndex { isAction($0.line) })
            // The log is in the order answers finished, across connections: a page let through just before
            // the first action, or just after the last one was let through, may land among them.
            func isPage(_ line: String) -> Bool {
                let parts = line.split(separator: " ")
                return parts.count > 2 && parts[0] == "GET" && parts[1] == "/api/v1/photos"
            }
            var pagesAmong: [String] = []
            for entry in entries[first..<last] where isPage(entry.line) { pagesAmong.append(entry.line) }
            #expect(pagesAmong.count <= 2, "the listing waited while actions were queued: \(pagesAmong)")
            #expect(entries[first...last].count { isAction($0.line) } == 40, "every action went out")
            #expect(!entries.contains { $0.line.contains(" 429 ") })
            // Per window, the listing never took more than the limit less the reserve.
            var pagesPerWindow: [Int: Int] = [:]
            for entry in entries where isPage(entry.line) {
                // Logged when answered, on the test clock: the window it arrived in, unless the clock moved
                // while it was in flight.
                pagesPerWindow[Int(entry.time / 3), default: 0] += 1
            }
            #expect(pagesPerWindow.values.reduce(0, +) >= 30, "the listing ran: \(pagesPerWindow)")
            // 34 is the limit less the reserve. A page let through just before the client saw the window
            // turn can reach the server just after, and count in the next window: one.
            #expect(pagesPerWindow.values.allSatisfy { $0 <= 35 }, "\(pagesPerWindow)")
        }
    }

    @Test(arguments: [false, true])
    func aRetryAfterOnCreatingATagIsWaitedInFull(asDate: Bool) async throws {
        let clock = TestClock()
        let timed = TimedLog(clock: clock)
        try await withKitServer(photos: 5, { configuration in
            configuration.faultRate = 0.5
            configuration.faults = [.unavailable]
            configuration.faultRetryAfter = 1
            configuration.retryAfterAsDate = asDate
            configuration.requestLog = { timed.append($0) }
        }, clock: clock) { _, client, _ in
            try await clock.advancingWhenIdle {
                for index in 1...6 { _ = try await client.createTag(name: "Patient \(index)") }
            }
            let posts = timed.entries.filter { $0.line.hasPrefix("POST /api/v1/tags ") }
            var refusals = 0
            for (refused, next) in zip(posts, posts.dropFirst()) where refused.line.contains(" 503 ") {
                refusals += 1
                // Retry-After: 1, or an HTTP-date one second past the server's clock, whole seconds.
                let due = asDate ? floor(refused.time) + 1 : refused.time + 1
                #expect(next.time >= due, "posted again \(next.time - refused.time) s after a 503")
            }
            #expect(refusals > 0, "the seed injects some 503s")
        }
    }
}
