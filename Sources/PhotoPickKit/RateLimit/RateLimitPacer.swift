import Foundation
import NIOHTTP1

/// One budget shared by every request of a client: it serves requests by lane (the user's first, then
/// what is on screen, downloads, the listing and prefetch), keeps a share of each window from the two
/// lowest lanes, spreads requests when the budget runs low and, after a 429 or an exhausted budget,
/// holds all of them until the window resets.
///
/// Before the server has said anything, it lets one request through at a time, so a burst of
/// concurrent tasks cannot overrun a budget it does not know yet.
actor RateLimitPacer {
    /// Thrown by `admit` when the hold would outlast the caller's deadline.
    struct HoldOutlastsDeadline: Error {
        let until: Date
    }

    /// The share of each window's limit kept for the user's lanes.
    let reservedShare: Double
    private let time: Timekeeper
    private var limit: Int?
    /// Requests believed left in the window, counted down as they are let through.
    private var budget: Int?
    private var resetAt: Date?
    private var holdUntil: Date?
    /// Whether the hold is only the spent budget waiting for its window's reset (not a 429), which a
    /// response reporting a fresh window with requests left ends at once.
    private var holdIsSpentBudget = false
    /// On the timekeeper's `elapsed` scale.
    private var nextSlot: Duration?
    private var inFlight = 0
    /// Requests waiting for their turn, by ticket number (which is their arrival order), with their lane.
    private var waiting: [Int: RequestLane] = [:]
    private var lastTicket = 0
    /// Tickets waiting only because the rest of the window is reserved.
    private var pausedForReserve: Set<Int> = []
    /// Waiters asleep until something changes, by ticket.
    private var sleepers: [Int: CheckedContinuation<Void, Never>] = [:]
    /// The timers that end a sleeper's timed sleep, cancelled when it is woken sooner.
    private var timers: [Int: Task<Void, Never>] = [:]
    /// Until the first response arrives; a server that sends no budget headers is then not probed again.
    private var isProbing = true
    private var subscribers: [UUID: AsyncStream<RateLimitState>.Continuation] = [:]

    /// A pacer that keeps `reservedShare` of each window (rounded up) for the user's lanes.
    init(reservedShare: Double = 0.15, time: Timekeeper) {
        self.reservedShare = min(max(reservedShare, 0), 0.9)
        self.time = time
    }

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
        let hold = holdUntil.flatMap { $0 > time.now() ? $0 : nil }
        return RateLimitState(
            limit: limit, remaining: budget, reset: resetAt, waiting: waiting.count, isHolding: hold != nil, holdUntil: hold,
            reserved: reserve, pausedForReserve: Set(pausedForReserve.compactMap { waiting[$0] })
        )
    }

    /// Requests of each window the listing and prefetch lanes leave alone.
    private var reserve: Int {
        limit.map { Int((Double($0) * reservedShare).rounded(.up)) } ?? 0
    }

    /// Waits for this request's turn: after every request of a higher lane, and every earlier one of its
    /// own. Throws `CancellationError`, or `HoldOutlastsDeadline` when the budget is held past `deadline`.
    func admit(lane: RequestLane = .user, deadline: Date = .distantFuture) async throws {
        lastTicket += 1
        let ticket = lastTicket
        waiting[ticket] = lane
        publish()
        defer {
            waiting[ticket] = nil
            pausedForReserve.remove(ticket)
            wakeAll()  // the next in line may go now
            publish()
        }
        while true {
            try Task.checkCancellation()
            let now = time.now()
            if let holdUntil, holdUntil > now {
                guard holdUntil <= deadline else { throw HoldOutlastsDeadline(until: holdUntil) }
                publish()
                await sleep(ticket, for: .milliseconds(Int64(holdUntil.timeIntervalSince(now) * 1000) + 1))
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
            guard isFirst(ticket, lane) else {
                await sleep(ticket, for: nil)
                continue
            }
            if let budget, budget <= 0 {
                if let resetAt {
                    holdUntil = resetAt.addingTimeInterval(0.05)
                    holdIsSpentBudget = true
                    continue
                }
                if inFlight > 0 {
                    await sleep(ticket, for: .milliseconds(20))
                    continue
                }
                // Nothing in flight and no reset known: one request goes out to learn the budget.
            } else if isProbing, budget == nil, inFlight > 0 {
                await sleep(ticket, for: .milliseconds(20))
                continue
            }
            if !lane.mayUseReserve, let budget, budget <= reserve {
                // The rest of this window is the user's; wait for the next one (or for a response that
                // says more is left).
                if pausedForReserve.insert(ticket).inserted { publish() }
                let untilReset = resetAt.map { $0.timeIntervalSince(now) + 0.05 } ?? 1
                await sleep(ticket, for: .milliseconds(Int64(max(0.02, untilReset) * 1000)))
                continue
            }
            if pausedForReserve.remove(ticket) != nil { publish() }
            // Take the turn before any spreading wait, so the next in line sees the budget it used. The
            // user's own requests are not spread: they come at a person's pace, and the reserve is theirs.
            let slot = lane == .user ? nil : spreadingSlot(now: now)
            inFlight += 1
            budget = budget.map { $0 - 1 }
            waiting[ticket] = nil
            wakeAll()
            guard let slot, slot > time.elapsed() else { return }
            do {
                try await time.sleep(for: slot - time.elapsed())
            } catch {
                giveBack()
                throw error
            }
            guard let holdUntil, holdUntil > time.now() else { return }
            giveBack()  // a 429 arrived while this one waited for its slot: it waits with the rest
            waiting[ticket] = lane
        }
    }

    /// Whether no waiting request comes before this one: none in a higher lane, none earlier in its own.
    private func isFirst(_ ticket: Int, _ lane: RequestLane) -> Bool {
        !waiting.contains { other, otherLane in otherLane < lane || (otherLane == lane && other < ticket) }
    }

    /// With little budget left, the next evenly spaced slot before the reset; nil when no spreading is needed.
    private func spreadingSlot(now: Date) -> Duration? {
        guard let budget, let limit, let resetAt, budget <= max(2, limit / 10) else { return nil }
        let interval = Duration.milliseconds(Int64(resetAt.timeIntervalSince(now) * 1000 / Double(max(budget, 0) + 1)))
        let slot = max(nextSlot ?? time.elapsed(), time.elapsed())
        nextSlot = slot + interval
        return slot
    }

    private func giveBack() {
        inFlight = max(0, inFlight - 1)
        budget = budget.map { $0 + 1 }
        wakeAll()
    }

    /// Reads the budget from a response (any status) to a request `admit` let through.
    func record(status: Int, headers: HTTPHeaders) {
        inFlight = max(0, inFlight - 1)
        isProbing = false
        let now = time.now()
        if let limit = headers.first(name: "X-RateLimit-Limit").flatMap(Int.init) { self.limit = limit }
        let reset = RetryAdvice.resetDate(in: headers, now: now)
        if let remaining = headers.first(name: "X-RateLimit-Remaining").flatMap(Int.init) {
            if reset == nil || resetAt.map({ reset!.timeIntervalSince($0) > 0.5 }) ?? true {
                // A later window than the one we were counting (or no window at all): its figures replace
                // ours, less what is still in flight, which this response may not have counted yet.
                resetAt = reset
                budget = remaining - inFlight
                if holdIsSpentBudget, status != 429, remaining - inFlight > 0 { holdUntil = nil }
            } else {
                budget = min(budget ?? remaining, remaining)
            }
        }
        if status == 429 {
            // Everyone waits: for Retry-After when given, else for the reset. The budget headers, when
            // present, already say whether the window is spent.
            holdAfterRefusal(headers: headers)
        }
        wakeAll()
        publish()
    }

    /// A 429 from somewhere `admit` did not pace, such as a file origin: everyone waits all the same.
    func holdAfterRefusal(headers: HTTPHeaders) {
        let now = time.now()
        let wait = RetryAdvice.wait(in: headers, now: now) ?? .seconds(1)
        let until = now.addingTimeInterval(wait.timeInterval)
        holdUntil = max(holdUntil ?? until, until)
        holdIsSpentBudget = false
        wakeAll()
        publish()
    }

    /// A request `admit` let through that got no response.
    func recordNoResponse() {
        inFlight = max(0, inFlight - 1)
        wakeAll()
    }

    /// Sleeps until woken by a change, `duration` passes, or the task is cancelled.
    private func sleep(_ ticket: Int, for duration: Duration?) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                guard !Task.isCancelled else { return continuation.resume() }
                sleepers[ticket] = continuation
                guard let duration else { return }
                timers[ticket] = Task { [weak self, time] in
                    guard (try? await time.sleep(for: duration)) != nil else { return }  // woken sooner
                    await self?.wake(ticket)
                }
            }
        } onCancel: {
            Task { await self.wake(ticket) }
        }
    }

    private func wake(_ ticket: Int) {
        timers.removeValue(forKey: ticket)?.cancel()
        sleepers.removeValue(forKey: ticket)?.resume()
    }

    private func wakeAll() {
        let all = sleepers
        sleepers = [:]
        for timer in timers.values { timer.cancel() }
        timers = [:]
        for continuation in all.values { continuation.resume() }
    }

    private func publish() {
        let state = self.state
        for continuation in subscribers.values { continuation.yield(state) }
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }
}
