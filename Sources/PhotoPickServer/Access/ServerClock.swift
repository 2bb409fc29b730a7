import Foundation

/// The server's one clock, in Unix seconds: rate-limit windows, signed-link expiry and `Retry-After`
/// dates read it, so a test that advances its clock turns windows and expires links without waiting.
struct ServerClock: Sendable {
    /// Where a clock other than `ContinuousClock` starts, 2027-01-15 08:00:00 UTC: a multiple of every
    /// window length a test uses, and the date PhotoPickKit's `Timekeeper` gives the same clock.
    static let testEpoch: Int64 = 1_800_000_000

    private let seconds: @Sendable () -> Int64

    init<C: Clock<Duration>>(_ clock: C) {
        if clock is ContinuousClock {
            seconds = { Int64(Date().timeIntervalSince1970) }
        } else {
            let start = clock.now
            seconds = { Self.testEpoch + start.duration(to: clock.now).components.seconds }
        }
    }

    /// Unix seconds now.
    func now() -> Int64 { seconds() }
}
