import NIOConcurrencyHelpers

/// A fixed window per key (`ServerConfiguration.rateLimitWindow`, 60 seconds by default, as the contract
/// describes for our server), aligned to multiples of its length in Unix time.
final class RateLimiter: Sendable {
    struct Decision: Sendable {
        let isAllowed: Bool
        let limit: Int
        let remaining: Int
        /// Unix seconds when the window resets.
        let reset: Int
    }

    private let limit: Int
    private let window: Int
    private let windows = NIOLockedValueBox([Int: (start: Int, count: Int)]())

    init(limit: Int, window: Int) {
        self.limit = limit
        self.window = window
    }

    /// Counts one request for `keyID` at `now` (Unix seconds) unless the budget is spent.
    func consume(keyID: Int, now: Int) -> Decision {
        let start = windowStart(at: now)
        return windows.withLockedValue { windows in
            var entry = windows[keyID] ?? (start, 0)
            if entry.start != start { entry = (start, 0) }
            let isAllowed = entry.count < limit
            if isAllowed { entry.count += 1 }
            windows[keyID] = entry
            return decision(isAllowed: isAllowed, used: entry.count, windowStart: start)
        }
    }

    /// The budget left for `keyID` without spending any.
    func peek(keyID: Int, now: Int) -> Decision {
        let start = windowStart(at: now)
        return windows.withLockedValue { windows in
            let used = windows[keyID].flatMap { $0.start == start ? $0.count : nil } ?? 0
            return decision(isAllowed: used < limit, used: used, windowStart: start)
        }
    }

    /// The start of the window `now` falls in.
    private func windowStart(at now: Int) -> Int {
        now - now % window
    }

    private func decision(isAllowed: Bool, used: Int, windowStart start: Int) -> Decision {
        Decision(isAllowed: isAllowed, limit: limit, remaining: limit - used, reset: start + window)
    }
}
