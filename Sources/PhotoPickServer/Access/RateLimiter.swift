import NIOConcurrencyHelpers

/// A fixed 60-second window per key, aligned to the minute, as the contract describes for our server.
final class RateLimiter: Sendable {
    struct Decision: Sendable {
        let isAllowed: Bool
        let limit: Int
        let remaining: Int
        /// Unix seconds when the window resets.
        let reset: Int
    }

    static let window = 60

    private let limit: Int
    private let windows = NIOLockedValueBox([Int: (start: Int, count: Int)]())

    init(limit: Int) {
        self.limit = limit
    }

    /// Counts one request for `keyID` at `now` (Unix seconds) unless the budget is spent.
    func consume(keyID: Int, now: Int) -> Decision {
        let start = now - now % Self.window
        return windows.withLockedValue { windows in
            var entry = windows[keyID] ?? (start, 0)
            if entry.start != start { entry = (start, 0) }
            let isAllowed = entry.count < limit
            if isAllowed { entry.count += 1 }
            windows[keyID] = entry
            return Decision(isAllowed: isAllowed, limit: limit, remaining: limit - entry.count, reset: start + Self.window)
        }
    }

    /// The budget left for `keyID` without spending any.
    func peek(keyID: Int, now: Int) -> Decision {
        let start = now - now % Self.window
        return windows.withLockedValue { windows in
            let used = windows[keyID].flatMap { $0.start == start ? $0.count : nil } ?? 0
            return Decision(isAllowed: used < limit, limit: limit, remaining: limit - used, reset: start + Self.window)
        }
    }
}
