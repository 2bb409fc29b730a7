import Foundation
import NIOHTTP1

/// One budget shared by every request of a client: it spreads requests when the budget runs low and,
/// after a 429 or an exhausted budget, holds all of them until the window resets.
///
/// Before the server has said anything, it lets one request through at a time, so a burst of
/// concurrent tasks cannot overrun a budget it does not know yet.
actor RateLimitPacer {
    /// Thrown by `admit` when the hold would outlast the caller's deadline.
    struct HoldOutlastsDeadline: Error {
        let until: Date
    }

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

    /// The state now and after every change; a slow reader gets only the newest.
    func updates() -> AsyncStream<RateLimitState> {
        let (stream, continuation) = AsyncStream.makeStream(of: RateLimitState.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        subscribers[id] = continuation
        continuation.yield(state)
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        return stream
    }

    /// Ends every update stream, when the client shuts down.
    func finish() {
        for continuation in subscribers.values { continuation.finish() }
        subscribers = [:]
    }

    var state: RateLimitState {
        RateLimitState(limit: limit, remaining: budget, reset: resetAt, waiting: waiting, isHolding: holdUntil.map { $0 > Date() } ?? false)
    }

    /// Waits for this request's turn. Throws `CancellationError`, or `HoldOutlastsDeadline` when the
    /// budget is held past `deadline`.
    func admit(deadline: Date = .distantFuture) async throws {
        waiting += 1
        publish()
        defer {
            waiting -= 1
            publish()
        }
        while true {
            let now = Date()
            if let holdUntil, holdUntil > now {
                guard holdUntil <= deadline else { throw HoldOutlastsDeadline(until: holdUntil) }
                try await sleep(until: holdUntil)
                continue
            }
            holdUntil = nil
            if let reset = resetAt, reset <= now {
                // A new window: assumed full until a response says otherwise, less the requests still in
                // flight from the old one, which may land in this one.
                resetAt = nil
                budget = limit.map { $0 - inFlight }
                nextSlot = nil
            }
            if let budget, budget <= 0 {
                if let resetAt {
                    holdUntil = resetAt.addingTimeInterval(0.05)
                    continue
                }
                if inFlight > 0 {
                    try await Task.sleep(for: .milliseconds(20))
                    continue
                }
                // Nothing in flight and no reset known: one request goes out to learn the budget.
            } else if isProbing, budget == nil, inFlight > 0 {
                try await Task.sleep(for: .milliseconds(5))
                continue
            }
            // Take the turn before any spreading wait, so concurrent waiters see the budget it used.
            let slot = spreadingSlot(now: now)
            inFlight += 1
            budget = budget.map { $0 - 1 }
            guard let slot, slot > clock.now else { return }
            do {
                try await Task.sleep(until: slot, clock: clock)
            } catch {
                giveBack()
                throw error
            }
            guard let holdUntil, holdUntil > Date() else { return }
            giveBack()  // a 429 arrived while this one waited for its slot: it waits with the rest
        }
    }

    /// With little budget left, the next evenly spaced slot before the reset; nil when no spreading is needed.
    private func spreadingSlot(now: Date) -> ContinuousClock.Instant? {
        guard let budget, let limit, let resetAt, budget <= max(2, limit / 10) else { return nil }
        let interval = Duration.milliseconds(Int64(resetAt.timeIntervalSince(now) * 1000 / Double(max(budget, 0) + 1)))
        let slot = max(nextSlot ?? clock.now, clock.now)
        nextSlot = slot + interval
        return slot
    }

    private func giveBack() {
        inFlight = max(0, inFlight - 1)
        budget = budget.map { $0 + 1 }
    }

    /// Reads the budget from a response (any status) to a request `admit` let through.
    func record(status: Int, headers: HTTPHeaders) {
        inFlight = max(0, inFlight - 1)
        isProbing = false
        let now = Date()
        if let limit = headers.first(name: "X-RateLimit-Limit").flatMap(Int.init) { self.limit = limit }
        let reset = RetryAdvice.resetDate(in: headers, now: now)
        if let remaining = headers.first(name: "X-RateLimit-Remaining").flatMap(Int.init) {
            if reset == nil || resetAt.map({ reset!.timeIntervalSince($0) > 0.5 }) ?? true {
                // A later window than the one we were counting (or no window at all): its figures replace
                // ours, less what is still in flight, which this response may not have counted yet.
                resetAt = reset
                budget = remaining - inFlight
            } else {
                budget = min(budget ?? remaining, remaining)
            }
        }
        if status == 429 {
            // Everyone waits: for Retry-After when given, else for the reset. The budget headers, when
            // present, already say whether the window is spent.
            holdAfterRefusal(headers: headers)
        }
        publish()
    }

    /// A 429 from somewhere `admit` did not pace, such as a file origin: everyone waits all the same.
    func holdAfterRefusal(headers: HTTPHeaders) {
        let now = Date()
        let wait = RetryAdvice.wait(in: headers, now: now) ?? .seconds(1)
        let until = now.addingTimeInterval(wait.timeInterval)
        holdUntil = max(holdUntil ?? until, until)
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
