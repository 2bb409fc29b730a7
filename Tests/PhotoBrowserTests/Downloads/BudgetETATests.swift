import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// The queue's time left counts the requests its items still need, and the header says what is held back.
@Suite struct BudgetETATests {
    private func totals(queued: Int, remainingBytes: Int64, rate: Double) -> DownloadQueue.Totals {
        var totals = DownloadQueue.Totals()
        totals.queued = queued
        totals.running = 1
        totals.expectedBytes = remainingBytes
        totals.bytesPerSecond = rate
        return totals
    }

    @Test func withBudgetLeftTheBytesDecide() {
        let now = Date()
        let budget = RateLimitState(limit: 300, remaining: 200, reset: now.addingTimeInterval(30))
        #expect(totals(queued: 50, remainingBytes: 10_000_000, rate: 1_000_000).secondsRemaining(budget: budget, now: now) == 10)
    }

    @Test func linksBeyondTheWindowWaitForTheNextOnes() {
        let now = Date()
        // 700 links needed, 100 left now: 600 more need two further windows (the second ends 60 s after the first).
        let budget = RateLimitState(limit: 300, remaining: 100, reset: now.addingTimeInterval(20))
        #expect(totals(queued: 700, remainingBytes: 1_000, rate: 1_000_000).secondsRemaining(budget: budget, now: now) == 80)
        // Unknown budget: the bytes alone.
        #expect(totals(queued: 700, remainingBytes: 2_000_000, rate: 1_000_000).secondsRemaining(budget: nil, now: now) == 2)
    }

    @Test func theHeaderSaysWhatIsHeldBackAndWhy() {
        let now = Date()
        #expect(RateLimitState(limit: 300, remaining: 40).heldBack(now: now) == nil)
        let throttled = RateLimitState(limit: 300, remaining: 0, isHolding: true, holdUntil: now.addingTimeInterval(11.2))
        #expect(throttled.heldBack(now: now) == "throttled 12 s")
        let paused = RateLimitState(limit: 300, remaining: 45, reserved: 45, pausedForReserve: [.prefetch, .listing])
        #expect(paused.heldBack(now: now) == "listing paused: 45 requests kept for you")
    }
}
