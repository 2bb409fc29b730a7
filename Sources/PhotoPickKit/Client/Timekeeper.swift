import Foundation

/// The client's one clock, opened once: waits and deadlines run on it, and so do the dates the pacer
/// compares with the server's `X-RateLimit-Reset`.
///
/// Closures over a generic clock rather than `any Clock<Duration>` kept as is, because an existential's
/// instants cannot be subtracted from one another without opening it at every use.
struct Timekeeper: Sendable {
    /// The date a clock other than `ContinuousClock` starts at, 2027-01-15 08:00:00 UTC: a fixed start
    /// puts a test on a window boundary, and the server's `ServerClock` uses the same one.
    static let testEpoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// Time since this timekeeper was made, for deadlines.
    let elapsed: @Sendable () -> Duration
    /// The wall time: `Date()` on the real clock, for the server's resets; the test epoch plus the time
    /// passed on any other.
    let now: @Sendable () -> Date
    private let sleepFor: @Sendable (Duration) async throws -> Void

    init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        if clock is ContinuousClock {
            now = { Date() }
        } else {
            now = { Self.testEpoch.addingTimeInterval(start.duration(to: clock.now).timeInterval) }
        }
        sleepFor = { try await clock.sleep(for: $0) }
    }

    /// The real clock.
    static let continuous = Timekeeper(ContinuousClock())

    /// Sleeps for `duration` on the clock; throws `CancellationError` when the task is cancelled first.
    func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return try Task.checkCancellation() }
        try await sleepFor(duration)
    }
}
