import Foundation

/// The server's one clock, in Unix seconds: rate-limit windows, signed-link expiry, `Retry-After` dates
/// and the slow fault's stall read it, so a test that advances its clock turns windows, expires links
/// and ends stalls without waiting.
struct ServerClock: Sendable {
    /// Where a clock other than `ContinuousClock` starts, 2027-01-15 08:00:00 UTC: a multiple of every
    /// window length a test uses, and the date PhotoPickKit's `Timekeeper` gives the same clock.
    static let testEpoch: Int64 = 1_800_000_000

    private let seconds: @Sendable () -> Int64
    private let sleepFor: @Sendable (Duration) async throws -> Void
    /// Time since the clock was opened, for how long a request took.
    let elapsed: @Sendable () -> Duration

    init<C: Clock<Duration>>(_ clock: C) {
        let opened = clock.now
        elapsed = { opened.duration(to: clock.now) }
        if clock is ContinuousClock {
            seconds = { Int64(Date().timeIntervalSince1970) }
        } else {
            let start = clock.now
            seconds = { Self.testEpoch + start.duration(to: clock.now).components.seconds }
        }
        sleepFor = { try await clock.sleep(for: $0) }
    }

    /// Sleeps for `duration` on the clock: a test's stall lasts until the test moves its clock on.
    func sleep(for duration: Duration) async throws {
        try await sleepFor(duration)
    }

    /// Unix seconds now.
    func now() -> Int64 { seconds() }
}

extension ServerConfiguration {
    /// The real clock: a server that serves people runs on it unless a test gives its own.
    public static let realClock: any Clock<Duration> = ContinuousClock()
}
