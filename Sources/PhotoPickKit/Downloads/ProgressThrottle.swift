import Foundation
import NIOConcurrencyHelpers

/// Lets through at most ten progress reports a second from a download's I/O callbacks, so the main
/// actor redraws for progress rather than for every chunk.
package final class ProgressThrottle: Sendable {
    private let lastReport = NIOLockedValueBox<Double>(-.infinity)
    private let clock: Timekeeper

    /// A throttle timing reports on `clock`.
    package init(clock: Timekeeper) {
        self.clock = clock
    }

    /// Whether a report now goes through.
    package func shouldReport() -> Bool {
        let now = clock.seconds
        return lastReport.withLockedValue { last in
            guard now - last >= 0.1 else { return false }
            last = now
            return true
        }
    }
}
