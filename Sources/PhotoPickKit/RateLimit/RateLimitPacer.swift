import Foundation
import NIOHTTP1

/// One budget shared by every request of a client: it spreads requests when the budget runs low and,
/// after a 429 or an exhausted budget, holds all of them until the window resets.
///
/// Before the server has said anything, it lets one request through at a time, so a burst of
/// concurrent tasks cannot overrun a budget it does not know yet.
actor RateLimitPacer {
    private let clock = ContinuousClock()
    private var limit: Int?
    /// Requests believed left in the window, counted down as they are let through.
    private var budget: Int?
    private var resetAt: Date?
    private var holdUntil: Date?
    private var nextSlot: ContinuousClock.Instant?
    private var inFlight = 0
    private var waiting = 0
    /// Until the first response arrives; a server that sends no budget headers is then not probed again.
    private var isProbing = true
    private var subscribers: [UUID: AsyncStream<RateLimitState>.Continuation] = [:]

    /// The state now and after every change, newest first when the reader is slow.
    func updates() -> AsyncStream<RateLimitState> {
        let (stream, continuation) = AsyncStream.makeStream(of: RateLimitState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        subscribers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    var state: RateLimitState {
        RateLimitState(limit: limit, remaining: budget, reset: resetAt, waiting: waiting, isHolding: holdUntil.map { $0 > Date() } ?? false)
    }

    /// Waits for this request's turn; throws `CancellationError` if the task is cancelled meanwhile.
    func admit() async throws {
        waiting += 1
        publish()
        defer {
            waiting -= 1
            publish()
        }
        while true {
            let now = Date()
            if let holdUntil, holdUntil > now {
                try await sleep(until: holdUntil)
                continue
            }
            holdUntil = nil
            if let reset = resetAt, reset <= now {
                // A new window: assumed full until a response says otherwise, less the requests still in
                // flight from the old one, which may land in this one.
                resetAt = nil
                budget = limit.map { $0 - inFlight }
            }
            if let budget, budget <= 0 {
                if let resetAt {
                    holdUntil = resetAt.addingTimeInterval(0.05)
                } else if inFlight > 0 {
                    try await Task.sleep(for: .milliseconds(20))
                } else {
                    break
                }
                continue
            }
            if isProbing, budget == nil, inFlight > 0 {
                // Nothing known yet: probe with one request before letting a burst through.
                try await Task.sleep(for: .milliseconds(5))
                continue
            }
            try await spreadIfLow(now: now)
            break
        }
        inFlight += 1
        budget = budget.map { $0 - 1 }
    }

    /// With little budget left, requests go out evenly spaced over the time to the reset.
    private func spreadIfLow(now: Date) async throws {
        guard let budget, let limit, let resetAt, budget <= max(2, limit / 10) else { return }
        let interval = Duration.milliseconds(Int64(resetAt.timeIntervalSince(now) * 1000 / Double(budget + 1)))
        let slot = max(nextSlot ?? clock.now, clock.now)
        nextSlot = slot + interval
        if slot > clock.now { try await Task.sleep(until: slot, clock: clock) }
    }

    /// Reads the budget from a response (any status) to a request `admit` let through.
    func record(status: Int, headers: HTTPHeaders) {
        inFlight = max(0, inFlight - 1)
        isProbing = false
        let now = Date()
        if let limit = headers.first(name: "X-RateLimit-Limit").flatMap(Int.init) { self.limit = limit }
        let reset = RetryAdvice.resetDate(in: headers, now: now)
        if let remaining = headers.first(name: "X-RateLimit-Remaining").flatMap(Int.init) {
            if let reset, resetAt.map({ reset.timeIntervalSince($0) > 0.5 }) ?? true {
                // A later window than the one we were counting: its figures replace ours, less what is
                // still in flight, which this response may not have counted yet.
                resetAt = reset
                budget = remaining - inFlight
            } else {
                budget = min(budget ?? remaining, remaining)
            }
        }
        if status == 429 {
            // Everyone waits: for Retry-After when given, else for the reset. The budget headers, when
            // present, already say whether the window is spent.
            let wait = RetryAdvice.wait(in: headers, now: now) ?? .seconds(1)
            let until = now.addingTimeInterval(Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18)
            holdUntil = max(holdUntil ?? until, until)
        }
        publish()
    }

    /// A request `admit` let through that got no response.
    func recordNoResponse() {
        inFlight = max(0, inFlight - 1)
    }

    private func sleep(until date: Date) async throws {
        publish()
        try await Task.sleep(for: .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000) + 1))
    }

    private func publish() {
        let state = self.state
        for continuation in subscribers.values { continuation.yield(state) }
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
