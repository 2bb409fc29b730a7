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
    /// When the hold ends, while `isHolding`.
    public var holdUntil: Date?
    /// Requests of each window that the listing and prefetch lanes never spend, once the limit is known.
    public var reserved: Int
    /// Lanes with requests waiting only because the rest of the window is kept for the user.
    public var pausedForReserve: Set<RequestLane>

    /// A state with whatever is known; by default nothing is known and nothing is held.
    public init(
        limit: Int? = nil, remaining: Int? = nil, reset: Date? = nil, waiting: Int = 0, isHolding: Bool = false,
        holdUntil: Date? = nil, reserved: Int = 0, pausedForReserve: Set<RequestLane> = []
    ) {
        self.limit = limit
        self.remaining = remaining
        self.reset = reset
        self.waiting = waiting
        self.isHolding = isHolding
        self.holdUntil = holdUntil
        self.reserved = reserved
        self.pausedForReserve = pausedForReserve
    }

    /// What is held back and why, for the header: "throttled 12 s", "listing paused: 45 requests kept
    /// for you"; nil when nothing is.
    public func heldBack(now: Date) -> String? {
        if isHolding, let holdUntil {
            return "throttled \(max(1, Int((holdUntil.timeIntervalSince(now)).rounded(.up)))) s"
        }
        guard let lane = pausedForReserve.min() else { return nil }
        return "\(lane) paused: \(reserved) requests kept for you"
    }
}
