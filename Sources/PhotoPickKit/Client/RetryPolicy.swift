/// When and how long to wait before trying a failed call again: exponential backoff with full jitter.
public struct RetryPolicy: Sendable, Hashable {
    /// Tries in all, the first included.
    public var maximumAttempts: Int
    /// The backoff ceiling of the first retry; each retry doubles it.
    public var baseDelay: Duration
    /// The largest backoff ceiling.
    public var maximumDelay: Duration
    /// No retry starts after this much time from the first try.
    public var deadline: Duration

    /// A policy; by default five tries in all, backoff ceilings up to 8 seconds, none started after 90 seconds.
    public init(
        maximumAttempts: Int = 5, baseDelay: Duration = .milliseconds(250), maximumDelay: Duration = .seconds(8),
        deadline: Duration = .seconds(90)
    ) {
        self.maximumAttempts = maximumAttempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.deadline = deadline
    }

    /// No retries at all.
    public static let never = RetryPolicy(maximumAttempts: 1)

    /// The wait before try `attempt + 1`, after `attempt` tries failed: uniform in 0...min(max, base·2^(attempt-1)).
    func backoff<Generator: RandomNumberGenerator>(afterAttempt attempt: Int, using generator: inout Generator) -> Duration {
        let ceiling = min(maximumDelay, baseDelay * (1 << min(max(attempt - 1, 0), 30)))
        return ceiling * Double.random(in: 0...1, using: &generator)
    }

    func backoff(afterAttempt attempt: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return backoff(afterAttempt: attempt, using: &generator)
    }
}
