import NIOConcurrencyHelpers

/// A clock that stands still until a test moves it, so waits of seconds take none: give it to the server
/// (`ServerConfiguration.clock`) and the client (`APIClient.Configuration.clock`), then `advance` it, or
/// let `advancingWhenIdle` move it to each sleeper's deadline in turn.
///
/// Both sides date its start 2027-01-15 08:00:00 UTC (`epochSeconds`), a boundary of every rate-limit
/// window the tests use.
public final class TestClock: Clock, Sendable {
    /// A point on the test clock: the time since it started.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// Time since the clock started.
        public var offset: Duration

        /// The instant `duration` later.
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        /// The time from this instant to `other`.
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        /// Whether `left` comes first.
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
    }

    /// The Unix time the server and client give this clock's start.
    public static let epochSeconds = 1_800_000_000

    private struct Sleeper {
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Int: Sleeper] = [:]
        var lastID = 0
        /// Counts every sleep begun or ended, so a driver can tell a quiet clock from a busy one.
        var activity = 0
        /// Once set, every sleep ends at once, moving the clock to its deadline.
        var isRunningFree = false
        /// Those waiting for sleepers (`sleepers(atLeast:)`, `sleeper(until:)`), by id.
        var watchers: [Int: (want: Want, continuation: CheckedContinuation<Void, Never>)] = [:]

        /// The watchers whose sleepers are there, taken out.
        mutating func dueWatchers() -> [CheckedContinuation<Void, Never>] {
            let due = watchers.filter { isMet($0.value.want) }
            for id in due.keys { watchers[id] = nil }
            return due.values.map(\.continuation)
        }

        func isMet(_ want: Want) -> Bool {
            switch want {
            case .count(let count): sleepers.count >= count
            case .deadline(let deadline): sleepers.values.contains { $0.deadline == deadline }
            }
        }
    }

    /// What a watcher waits for: so many sleepers, or one sleeping until exactly a deadline.
    private enum Want {
        case count(Int)
        case deadline(Instant)
    }

    private let state = NIOLockedValueBox(State())

    /// A clock at its start, with no sleepers.
    public init() {}

    /// The current instant; it changes only by `advance`.
    public var now: Instant { state.withLockedValue { $0.now } }
    /// No rounding: a sleep ends exactly at its deadline.
    public var minimumResolution: Duration { .zero }
    /// How many tasks are asleep on this clock.
    public var sleeperCount: Int { state.withLockedValue { $0.sleepers.count } }
    /// The time passed since the clock started.
    public var elapsed: Duration { now.offset }

    /// Suspends until the clock is advanced to `deadline`; throws `CancellationError` if cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLockedValue { state in
            state.lastID += 1
            return state.lastID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, watchers): ((any Error)??, [CheckedContinuation<Void, Never>]) = state.withLockedValue { state in
                    if Task.isCancelled { return (.some(CancellationError()), []) }
                    if state.isRunningFree { state.now = max(state.now, deadline) }
                    if deadline <= state.now { return (.some(nil), []) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    state.activity += 1
                    return (nil, state.dueWatchers())
                }
                for watcher in watchers { watcher.resume() }
                switch resumeNow {
                case .some(.some(let error)): continuation.resume(throwing: error)
                case .some(.none): continuation.resume()
                case .none: break
                }
            }
        } onCancel: {
            let sleeper = state.withLockedValue { state in
                state.activity += 1
                return state.sleepers.removeValue(forKey: id)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration`, waking every sleeper whose deadline it reaches, earliest first.
    public func advance(by duration: Duration) {
        advance(to: now.advanced(by: duration))
    }

    /// Moves the clock to `instant` (never back), waking every sleeper whose deadline it reaches, earliest first.
    public func advance(to instant: Instant) {
        let due = state.withLockedValue { state in
            state.now = max(state.now, instant)
            let due = state.sleepers.filter { $0.value.deadline <= state.now }.sorted { $0.value.deadline < $1.value.deadline }
            for (id, _) in due { state.sleepers[id] = nil }
            if !due.isEmpty { state.activity += 1 }
            return due.map(\.value.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Ends every sleep, now and from now on, each at its deadline: for the end of a test, so that a
    /// server stalled on this clock can finish what it was doing and stop.
    public func runFree() {
        let sleepers = state.withLockedValue { state in
            state.isRunningFree = true
            let sleepers = state.sleepers.values.sorted { $0.deadline < $1.deadline }
            state.now = max(state.now, sleepers.last?.deadline ?? state.now)
            state.sleepers = [:]
            return sleepers
        }
        for sleeper in sleepers { sleeper.continuation.resume() }
    }

    /// Runs `body` while a driver moves the clock to the earliest sleeper's deadline each time the clock
    /// has been quiet (no sleep begun or ended) for `quiet` of real time: time passes only when everything
    /// that is not waiting on it has had its turn. Real I/O still takes real time; a reply that takes
    /// longer than `quiet` is to the code under test like a slow network.
    public func advancingWhenIdle<Result>(
        isolation: isolated (any Actor)? = #isolation, quiet: Duration = .milliseconds(20),
        _ body: () async throws -> Result
    ) async throws -> Result {
        let driver = Task { [self] in
            var seen = -1
            var quietSince = ContinuousClock.now
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(2))
                let (activity, next) = state.withLockedValue { state in
                    (state.activity, state.sleepers.values.map(\.deadline).min())
                }
                if activity != seen {
                    seen = activity
                    quietSince = ContinuousClock.now
                } else if let next, ContinuousClock.now - quietSince >= quiet {
                    advance(to: next)
                }
            }
        }
        defer { driver.cancel() }
        return try await body()
    }
}

extension TestClock {
    /// Returns once at least `count` tasks sleep on this clock, woken as each sleep begins (never on a
    /// timer): a test advances the clock only once what it waits for has started waiting. Returns at
    /// once when the waiting task is cancelled.
    public func sleepers(atLeast count: Int) async {
        await watch(.count(count))
    }

    /// Returns once a task sleeps until exactly `deadline`, woken as each sleep begins: a test that knows
    /// when a wait should end moves the clock only once that wait has begun, whatever else sleeps. A
    /// wait of another length never matches, and the suite's time limit ends the test.
    public func sleeper(until deadline: Instant) async {
        await watch(.deadline(deadline))
    }

    private func watch(_ want: Want) async {
        let id = state.withLockedValue { state in
            state.lastID += 1
            return state.lastID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now: Bool = state.withLockedValue { state in
                    guard !state.isMet(want), !Task.isCancelled else { return true }
                    state.watchers[id] = (want, continuation)
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let watcher = state.withLockedValue { $0.watchers.removeValue(forKey: id) }
            watcher?.continuation.resume()
        }
    }

    /// Runs `body` while time jumps to each sleeper's deadline as soon as it begins to sleep, the earliest
    /// first: for a test whose one task waits on the clock at a time (a retry, a window's reset), where a
    /// wait ends exactly when it should on the clock, and takes no real time.
    public func advancingOnEachSleep<Result>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Result
    ) async throws -> Result {
        let driver = Task { [self] in
            while !Task.isCancelled {
                await sleepers(atLeast: 1)
                guard !Task.isCancelled, let next = state.withLockedValue({ $0.sleepers.values.map(\.deadline).min() }) else { continue }
                advance(to: next)
            }
        }
        defer { driver.cancel() }
        return try await body()
    }
}
