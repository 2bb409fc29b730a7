/// A count that tasks raise and a test waits on: `wait(for:)` returns once the count has reached a
/// number, woken by the raise that reached it, never by looking again and again.
public actor Tally {
    private var count = 0
    private var waiting: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

    /// A tally at zero.
    public init() {}

    /// The count now.
    public var value: Int { count }

    /// Raises the count by one, waking those waiting for the number reached.
    public func raise() {
        count += 1
        let due = waiting.filter { $0.target <= count }
        waiting.removeAll { $0.target <= count }
        for waiter in due { waiter.continuation.resume() }
    }

    /// Raises the count from a synchronous context, in a task of its own.
    public nonisolated func raiseLater() {
        Task { await raise() }
    }

    /// Returns once the count is at least `target`.
    public func wait(for target: Int) async {
        if count >= target { return }
        await withCheckedContinuation { waiting.append((target, $0)) }
    }
}
