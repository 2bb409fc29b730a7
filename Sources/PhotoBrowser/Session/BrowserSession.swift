import Foundation
import Logging
import PhotoPickKit

/// Runs a `BrowserState`: applies events, performs the effects they return (network, outbox, downloads,
/// timers), and turns results back into events. The front end sends the user's events and redraws on
/// `changes`; nothing here knows about a terminal.
///
/// It lives on the main actor, where the terminal is drawn and the verbs print; every task it starts
/// comes back there before it touches anything. Its timers run on the configuration's clock, and every
/// event is dated by it.
@MainActor
public final class BrowserSession {
    /// The current state; read it to draw.
    public private(set) var state: BrowserState
    /// Yields after every change, coalesced: a slow reader sees one wake-up for many changes.
    public let changes: AsyncStream<Void>
    /// Called after each event or report with the state it produced; tests and the verbs watch
    /// transitions through it.
    package var onEvent: ((BrowserInput, BrowserState) -> Void)?

    let client: APIClient
    let configuration: Configuration
    let outbox: TagOutbox
    let editOutbox: EditOutbox
    let downloadStore: DownloadStore
    /// The library as last seen; replaced by an empty one if it turns out damaged.
    var catalogue: Catalogue
    /// Focus scores waiting for the catalogue, the newest of each photo; one writer at a time keeps
    /// them in order.
    var focusToSave: [Int: Double] = [:]
    var focusWriter: Task<Void, Never>?
    /// The last of the catalogue writes of sent edits and purges, each after the one before.
    var catalogueWriter: Task<Void, Never>?
    /// The last of the discards of cancelled downloads' partial files, each after the one before.
    var partialDiscards: Task<Void, Never>?
    /// Why the catalogue was set aside at opening, told once the session starts.
    var catalogueNotice: String?
    let changed: AsyncStream<Void>.Continuation
    /// Sends both outboxes, once started.
    private(set) var pump: OutboxPump?
    /// Whether the pump sends field edits yet (`startEditSender`).
    var editSenderStarted = false
    var loadTask: Task<Void, Never>?
    /// A new filter being worked out over a large library.
    var filterTask: Task<Void, Never>?
    /// Walks told to stop that may still be finishing a page: stopping waits for them too.
    var stoppedWalks: [Task<Void, Never>] = []
    var downloadRuns: [Int64: DownloadRun] = [:]
    private var backgroundTasks: [Task<Void, Never>] = []
    private(set) var isStopped = false
    /// Whether the server confirmed the library; until then `held` keeps what would reach the server.
    var isConfirmed: Bool
    var held: [BrowserEffect] = []

    /// The clock the session's timers run on and its events are dated by.
    package var clock: Timekeeper { configuration.clock }
    /// Where the session keeps its state: the editor's files go under it.
    package var stateDirectory: URL { configuration.stateDirectory }

    /// Opens the state database and the catalogue (once each); nothing is sent until `start()`.
    public init(client: APIClient, configuration: Configuration) throws {
        self.client = client
        self.configuration = configuration
        isConfirmed = !configuration.isProvisional
        let database = try StateDatabase.opened(in: configuration.stateDirectory)
        outbox = TagOutbox(database: database, library: configuration.library)
        editOutbox = EditOutbox(database: database, library: configuration.library)
        downloadStore = DownloadStore(database: database, library: configuration.library, clock: configuration.clock)
        (catalogue, catalogueNotice) = try Catalogue.open(library: configuration.library, directory: configuration.stateDirectory, now: configuration.clock.now())
        state = configuration.initialState(apiURL: client.baseURL)
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Restores the outboxes and the queue, puts the catalogue's photos on screen, then checks them
    /// against the server when the refresh policy says; loads the account and the tags, and starts
    /// sending edits left from the last session. A provisional session does only the first two until
    /// `confirm(_:)`.
    public func start() throws {
        try outbox.settleMadeTags()
        let saved = try outbox.database.savedState(library: configuration.library, now: clock.now())
        if !saved.pendingTags.isEmpty { report(.tags(.pendingTagsRestored(saved.pendingTags))) }
        if !saved.edits.isEmpty { report(.edits(.photoEditsRestored(saved.edits))) }
        report(.sessionStarted(
            outbox: saved.deltas, bulks: saved.bulks, nextSequence: saved.nextSequence, downloads: saved.downloads, nextDownloadID: saved.nextDownloadID
        ))
        pump = OutboxPump(
            tags: TagSender(client: client, outbox: outbox, catalogue: catalogue, freshness: configuration.tagFreshness, clock: clock),
            edits: EditSender(client: client, outbox: editOutbox), clock: clock
        ) { [weak self] report in
            await self?.report(report)
        }
        background { await self.loadCatalogue() }
        background { [client] in
            for await limit in await client.rateLimitUpdates() { self.report(.status(.rateLimitChanged(limit))) }
        }
        if isConfirmed { connect(account: configuration.account) }
    }

    /// Applies what the user did and runs what it asks for.
    public func send(_ event: BrowserEvent) {
        take(.event(event))
    }

    /// Applies what an effect reported (or a test, feeding the session by hand) and runs what it asks for.
    package func report(_ report: BrowserReport) {
        take(.report(report))
    }

    private func take(_ input: BrowserInput) {
        guard !isStopped else { return }
        let effects = state.apply(input, at: clock.now())
        onEvent?(input, state)
        for effect in effects { perform(effect) }
        changed.yield()
    }

    /// Wakes the reader of `changes` with nothing changed, so something drawn from the clock as well as
    /// the state (a script's speed and time left) is drawn again while nothing arrives.
    package func wakeReader() {
        changed.yield()
    }

    /// Stops everything in flight. Unsent edits stay in the outbox and unfinished downloads in the
    /// queue (with their `.part` files), so the next start picks them up.
    public func stop() async {
        isStopped = true
        await focusWriter?.value  // scores measured this session are kept
        await catalogueWriter?.value  // so are sent edits and purges
        await partialDiscardsEnded()  // and no partial file is left half-discarded
        let tasks = [loadTask, filterTask].compactMap { $0 } + stoppedWalks + downloadRuns.values.map(\.task) + backgroundTasks
        tasks.forEach { $0.cancel() }
        for task in tasks { await task.value }
        changed.finish()
    }

    /// Runs `operation` on the main actor until the session stops.
    func background(_ operation: @escaping @MainActor () async -> Void) {
        backgroundTasks.append(Task { await operation() })
    }

    /// A one-line message for an error: its `userMessage` when it has one, else its description.
    package nonisolated static func describe(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? String(describing: error)
    }
}

/// The task downloading one queue item, and which run of the item it is.
struct DownloadRun {
    let number: Int
    let task: Task<Void, Never>
}
