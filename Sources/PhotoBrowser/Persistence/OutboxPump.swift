import PhotoPickKit

/// What became of one photo's outbox rows.
enum Delivery<Answer: Sendable>: Sendable {
    /// The server took them; its answer.
    case sent(Answer)
    /// Refused for good: they leave the outbox and the screen goes back.
    case rejected(String)
    /// Worth trying again later: the network, the server or the budget said not now.
    case delayed(String)
    case cancelled

    /// Refusals that no retry can change end the rows; everything else keeps them for later.
    init(failure error: APIError) {
        switch error {
        case .cancelled:
            self = .cancelled
        case .response(let response) where response.status == 404:
            self = .rejected("the photo no longer exists.")
        case .response(let response) where response.code == .unauthorized || response.code == .ipNotWhitelisted:
            self = .delayed(error.userMessage)
        case .response(let response) where (400..<500).contains(response.status) && response.status != 429 && response.status != 408:
            self = .rejected(error.userMessage)
        default:
            self = .delayed(error.userMessage)
        }
    }
}

/// One outbox as the pump sends it: its rows, how one photo's rows are delivered, and how an outcome
/// is written back.
protocol OutboxSender: Sendable {
    associatedtype Item: Sendable
    associatedtype Answer: Sendable

    /// The rows of the photos that have waited longest.
    func nextBatch() throws -> [Item]
    /// The photo a row changes, and its sequence.
    func photoID(of item: Item) -> Int
    func sequence(of item: Item) -> Int64
    /// What delivers one photo's rows of `batch`, made ready once for the batch.
    func courier(for batch: [Item]) async -> @Sendable (_ photoID: Int, _ items: [Item]) async -> Delivery<Answer>
    /// Writes a sent or refused photo's outcome to the outbox and returns the event that tells it.
    func settle(_ items: [Item], of photoID: Int, _ delivery: Delivery<Answer>) throws -> BrowserReport?
    /// The event that tells why rows wait.
    func delayed(_ reason: String) -> BrowserReport
}

/// Sends both outboxes in one loop, with one statement of what happens when something fails:
///
/// A row leaves its outbox only once the server has confirmed or refused it and that removal is
/// written; a server that cannot be reached, a budget spent, or a state database that cannot be read or
/// written all keep the rows and delay the round, which is told once and followed by a backoff (doubling
/// to a minute) on the session's clock. Sending again what was sent is harmless: each sender reads
/// before it writes, and writes nothing when the server already has it.
///
/// A round makes the tags the deltas wait for, then sends a batch of tag deltas and (once edits are
/// enabled, after the catalogue is on screen) a batch of field edits, a few photos at a time; with
/// nothing to send it waits for a nudge.
actor OutboxPump {
    private var tags: TagSender
    private let edits: EditSender
    private var sendsEdits = false
    private let clock: Timekeeper
    private let report: @Sendable (BrowserReport) async -> Void
    private let nudges: AsyncStream<Void>
    private let nudger: AsyncStream<Void>.Continuation
    /// Photos written at once; the client's pacer spaces them further when the budget runs low.
    private let width = 4

    init(tags: TagSender, edits: EditSender, clock: Timekeeper, report: @escaping @Sendable (BrowserReport) async -> Void) {
        self.tags = tags
        self.edits = edits
        self.clock = clock
        self.report = report
        (nudges, nudger) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Says there is something new in an outbox.
    nonisolated func nudge() {
        nudger.yield()
    }

    /// Starts sending field edits too.
    func sendEdits() {
        sendsEdits = true
        nudge()
    }

    /// Keeps tags in another catalogue, after the first was set aside.
    func use(_ catalogue: Catalogue) {
        tags.catalogue = catalogue
    }

    /// What one round came to.
    private enum Round {
        /// Nothing waits: sleep until nudged.
        case idle
        /// Sent what it could.
        case sent
        /// Something had to wait; the event that says why.
        case delayed(BrowserReport)
    }

    /// Sends until cancelled or the nudges end.
    func run() async {
        var backoff = Duration.seconds(1)
        var iterator = nudges.makeAsyncIterator()
        while !Task.isCancelled {
            switch await round() {
            case .idle:
                guard await iterator.next() != nil else { return }
            case .delayed(let event):
                if Task.isCancelled { return }
                await report(event)
                guard (try? await clock.sleep(for: backoff)) != nil else { return }
                backoff = min(backoff * 2, .seconds(60))
            case .sent:
                backoff = .seconds(1)
            }
        }
    }

    private func round() async -> Round {
        // Deltas of tags made already go even while a creation has to wait.
        let creation = await tags.createPendingTags(report: report)
        if Task.isCancelled { return .idle }
        // A bulk's next chunk becomes deltas once the last has nearly gone.
        if let failure = await tags.expandBulk(report: report) { return .delayed(tags.delayed(failure)) }
        var sentAny = false
        var delay: BrowserReport?
        for sender in sendsEdits ? [AnyOutbox(tags), AnyOutbox(edits)] : [AnyOutbox(tags)] {
            switch await sender.sendBatch(width, report) {
            case .idle: continue
            case .sent: sentAny = true
            case .delayed(let reason): delay = delay ?? sender.delayed(reason)
            }
            if Task.isCancelled { return .idle }
        }
        if let delay = delay ?? creation.map(tags.delayed) { return .delayed(delay) }
        return sentAny ? .sent : .idle
    }
}

/// An outbox sender whatever its rows, for the pump's one loop.
private struct AnyOutbox: Sendable {
    let sendBatch: @Sendable (_ width: Int, _ report: @escaping @Sendable (BrowserReport) async -> Void) async -> BatchOutcome
    let delayed: @Sendable (String) -> BrowserReport

    init<Sender: OutboxSender>(_ sender: Sender) {
        sendBatch = { width, report in await sender.sendBatch(width: width, report: report) }
        delayed = sender.delayed
    }
}

/// What sending one batch came to.
enum BatchOutcome: Sendable {
    case idle
    case sent
    case delayed(String)
}

extension OutboxSender {
    /// Sends one batch, `width` photos at a time, settling each as it lands; stops starting photos once
    /// one had to wait, and returns why.
    func sendBatch(width: Int, report: @escaping @Sendable (BrowserReport) async -> Void) async -> BatchOutcome {
        let batch: [Item]
        do { batch = try nextBatch() } catch { return .delayed("the state database cannot be read (\(error)).") }
        guard !batch.isEmpty else { return .idle }
        let photos = Dictionary(grouping: batch, by: photoID(of:)).sorted { sequence(of: $0.value[0]) < sequence(of: $1.value[0]) }
        let deliver = await courier(for: batch)
        var delayed: String?
        await withTaskGroup(of: (Int, [Item], Delivery<Answer>).self) { group in
            var next = photos.makeIterator()
            for _ in 0..<width {
                guard let (photoID, items) = next.next() else { break }
                group.addTask { (photoID, items, await deliver(photoID, items)) }
            }
            for await (photoID, items, delivery) in group {
                switch delivery {
                case .delayed(let reason): delayed = reason
                case .cancelled: return
                case .sent, .rejected:
                    do {
                        if let event = try settle(items, of: photoID, delivery) { await report(event) }
                    } catch {
                        // Still in the outbox: sent again later, which finds it done and writes nothing.
                        delayed = "the state database cannot be written (\(error))."
                    }
                }
                if delayed == nil, let (photoID, items) = next.next() {
                    group.addTask { (photoID, items, await deliver(photoID, items)) }
                }
            }
        }
        return delayed.map(BatchOutcome.delayed) ?? .sent
    }
}
