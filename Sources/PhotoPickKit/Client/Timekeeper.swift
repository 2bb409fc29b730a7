import Foundation

/// One clock, opened once, that everything which waits or dates takes from outside: the client's
/// retries, pacer and links; the browser session's timers; the loaders; the terminal's frames. The app's
/// entry point gives them `continuous`; a test gives them its own clock and advances it, so a wait of
/// an hour takes none.
///
/// Closures over a generic clock rather than `any Clock<Duration>` kept as is, because an existential's
/// instants cannot be subtracted from one another without opening it at every use.
public struct Timekeeper: Sendable {
    /// The date a clock other than `ContinuousClock` starts at, 2027-01-15 08:00:00 UTC: a fixed start
    /// puts a test on a window boundary, and the server's `ServerClock` uses the same one.
    public static let testEpoch = Date(timeIntervalSince1970: 1_800_000_000)

    /// Time since this timekeeper was made: the instants of deadlines and frames.
    public let elapsed: @Sendable () -> Duration
    /// The wall time: `Date()` on the real clock, for the server's resets and the user's "2 h ago"; the
    /// test epoch plus the time passed on any other.
    public let now: @Sendable () -> Date
    private let sleepFor: @Sendable (Duration) async throws -> Void

    /// A timekeeper over `clock`, starting now.
    public init<C: Clock<Duration>>(_ clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        if clock is ContinuousClock {
            now = { Date() }
        } else {
            now = { Self.testEpoch.addingTimeInterval(start.duration(to: clock.now).timeInterval) }
        }
        sleepFor = { try await clock.sleep(for: $0) }
    }

    /// The real clock: what the app's entry points give everything.
    public static let continuous = Timekeeper(ContinuousClock())

    /// Sleeps for `duration` on the clock; throws `CancellationError` when the task is cancelled first.
    public func sleep(for duration: Duration) async throws {
        guard duration > .zero else { return try Task.checkCancellation() }
        try await sleepFor(duration)
    }

    /// Sleeps until `elapsed()` reaches `deadline`; throws `CancellationError` when cancelled first.
    public func sleep(until deadline: Duration) async throws {
        try await sleep(for: deadline - elapsed())
    }

    /// Seconds since this timekeeper was made, for rates.
    public var seconds: Double { elapsed() / .seconds(1) }
}
