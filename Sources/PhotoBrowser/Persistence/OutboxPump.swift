/// The loop both outboxes' senders run: a round sends what waits; with nothing to send it waits for a
/// nudge; a round that had to put something off is followed by a backoff, doubling to a minute, so a
/// server that cannot be reached is not hammered, and edits made meanwhile go with the next round.
struct OutboxPump {
    /// What one round came to.
    enum Round: Sendable {
        /// Nothing waits: sleep until nudged.
        case idle
        /// Sent what it could; the reason when something had to wait.
        case sent(delayed: String?)
        /// The state database could not be read; the reason for the status line.
        case unreadable(String)
    }

    /// Runs rounds until cancelled or the nudges end, telling `delayed` why a round had to wait; on the
    /// caller's actor (the sender's), so the rounds touch its state.
    static func run(
        isolation: isolated (any Actor)? = #isolation, nudges: AsyncStream<Void>, round: () async -> Round, delayed: (String) async -> Void
    ) async {
        var backoff = Duration.seconds(1)
        var iterator = nudges.makeAsyncIterator()
        while !Task.isCancelled {
            switch await round() {
            case .idle:
                guard await iterator.next() != nil else { return }
            case .unreadable(let reason):
                await delayed("the state database cannot be read (\(reason)).")
                try? await Task.sleep(for: .seconds(5))
            case .sent(let reason?):
                if Task.isCancelled { return }
                await delayed(reason)
                try? await Task.sleep(for: backoff)
                backoff = min(backoff * 2, .seconds(60))
            case .sent(nil):
                backoff = .seconds(1)
            }
        }
    }
}
