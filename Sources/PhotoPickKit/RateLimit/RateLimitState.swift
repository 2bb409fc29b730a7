import Foundation

/// The rate-limit budget as the client sees it, for a status bar.
public struct RateLimitState: Sendable, Hashable {
    /// Requests per window, once the server has said.
    public var limit: Int?
    /// Requests the client believes are left in this window.
    public var remaining: Int?
    /// When the window resets, once the server has said.
    public var reset: Date?
    /// Requests held back by the pacer right now.
    public var waiting: Int
    /// Whether every request is held until `reset`, after a 429 or an exhausted budget.
    public var isHolding: Bool

    /// A state with whatever is known; by default nothing is known and nothing is held.
    public init(limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil, waiting: Int = 0, isHolding: Bool = false) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.waiting = waiting
        self.isHolding = isHolding
    }
}
