import Foundation
import Logging
import PhotoPickKit

// @unchecked Sendable: an isolation chosen at run time is one the compiler cannot check. `send` checks
// it (`preconditionIsolated`), and every task the session starts enters it through `onSession`.
/// Runs a `BrowserState`: applies events, performs the effects they return (network, outbox, downloads,
/// timers), and turns results back into events. The front end sends the user's events and redraws on
/// `changes`; nothing here knows about a terminal.
///
/// Its state lives on one actor, the one it was made on: the main actor in the app, where the terminal
/// is drawn, and a test's own actor in the tests. Its methods are called there, and every task it starts
/// goes back there (`onSession`) before it touches anything.
public final class BrowserSession: @unchecked Sendable {
    /// What a session needs besides a client.
    public struct Configuration: Sendable {
        /// Names the library in the state database: edits and downloads of one library never reach another.
        var library: String
        /// Where `state.sqlite` lives.
        var stateDirectory: URL
        /// Where downloads go.
        var downloadDirectory: URL
        /// The variant `d` downloads until another is chosen.
        var downloadVariant: DownloadSize
        /// Downloads at once.
        var concurrency: Int
        /// How long information and warnings stay on the status line.
        var messageLifetime: Duration
        /// Receives the session's own log lines.
        var logger: Logger
        /// The key's `/me`, when the caller already asked for it; the session asks otherwise.
        var account: Me?
        /// The library is the one last opened at this address, taken before the server said whose the key
        /// is: its catalogue and edits show at once, and nothing is sent to the server (no walk, tag edit,
        /// download or `/me`) until `confirm(_:)`. If the key turns out to be another account's, the
        /// caller stops this session and opens that account's library instead.
        public var isProvisional = false
        /// When the catalogue is checked against the server.
        var refresh: RefreshPolicy
        /// How recently a page or read must have seen a photo's tags for a tag edit to be written
        /// without reading them first; zero always reads.
        var tagFreshness: Duration
        /// The tag names of the culling marks (`[cull]`).
        public var markNames = MarkNames()
        /// Seconds between frames of one burst at most (`burst_gap`).
        public var burstGap: Double = 2
        /// The config's `[searches]`.
        public var savedSearches: [SavedSearch] = []
        /// Photos one purge may delete at most (`purge_limit`).
        public var purgeLimit = 500
        /// Where `#` keeps originals before deleting them (`keep_originals`).
        public var keepOriginals: URL?
        /// How long before a check a finished download must have last changed for its stamp to be kept
        /// (`FileStamp.settling`); a test shortens it rather than wait two seconds.
        var stampSettling = FileStamp.settling

        /// A configuration with defaults for everything but the library and its two directories.
        public init(
            library: String, stateDirectory: URL,
            downloadDirectory: URL, downloadVariant: DownloadSize = .original,
            concurrency: Int = DownloadQueue.defaultConcurrency,
            messageLifetime: Duration = .seconds(5), logger: Logger = Logger(label: "photopick.browser"), account: Me? = nil,
            refresh: RefreshPolicy = .hourly, tagFreshness: Duration = .seconds(60)
        ) {
            self.library = library
            self.stateDirectory = stateDirectory
            self.downloadDirectory = downloadDirectory
            self.downloadVariant = downloadVariant
            self.concurrency = concurrency
            self.messageLifetime = messageLifetime
            self.logger = logger
            self.account = account
            self.refresh = refresh
            self.tagFreshness = tagFreshness
        }
    }

    /// Where the session keeps its state: the editor's files go under it.
    public var stateDirectory: URL { configuration.stateDirectory }

    /// The current state; read it to draw.
    public private(set) var state: BrowserState
    /// Yields after every change, coalesced: a slow reader sees one wake-up for many changes.
    public let changes: AsyncStream<Void>
    /// Called after each event with the state it produced; tests watch transitions through it.
    public var onEvent: ((BrowserEvent, BrowserState) -> Void)?

    let client: APIClient
    let configuration: Configuration
    let outbox: TagOutbox
    let editOutbox: EditOutbox
    let downloadStore: DownloadStore
    /// The library as last seen; replaced by an empty one if it turns out damaged.
    private(set) var catalogue: Catalogue
    /// Focus scores waiting for the catalogue, the newest of each photo; one writer at a time keeps
    /// them in order.
    private var focusToSave: [Int: Double] = [:]
    private var focusWriter: Task<Void, Never>?
    /// The last of the catalogue writes of sent edits and purges, each after the one before.
    private var catalogueWriter: Task<Void, Never>?
    /// Why the catalogue was set aside at opening, told once the session starts.
    private var catalogueNotice: String?
    let changed: AsyncStream<Void>.Continuation
    private(set) var sender: TagSender?
    private(set) var editSender: EditSender?
    /// Whether the edit sender runs (`startEditSender`).
    var editSenderStarted = false
    private var loadTask: Task<Void, Never>?
    var downloadRuns: [Int64: DownloadRun] = [:]
    private var backgroundTasks: [Task<Void, Never>] = []
    private(set) var isStopped = false
    /// Whether the server confirmed the library; until then `held` keeps what would reach the server.
    var isConfirmed: Bool
    var held: [BrowserEffect] = []

    /// The actor the session's state lives on.
    let isolation: any Actor

    /// Opens the state database; nothing is sent until `start()`. The session lives on the caller's
    /// actor (the main actor when the caller has none).
    public init(client: APIClient, configuration: Configuration, isolation: (any Actor)? = #isolation) throws {
        self.isolation = isolation ?? MainActor.shared
        self.client = client
        self.configuration = configuration
        isConfirmed = !configuration.isProvisional
        let database = try StateDatabase(directory: configuration.stateDirectory)
        outbox = TagOutbox(database: database, library: configuration.library)
        editOutbox = EditOutbox(database: database, library: configuration.library)
        downloadStore = DownloadStore(database: database, library: configuration.library)
        (catalogue, catalogueNotice) = try Catalogue.open(library: configuration.library, directory: configuration.stateDirectory)
        state = BrowserState(
            downloadDirectory: configuration.downloadDirectory, concurrency: configuration.concurrency, refreshPolicy: configuration.refresh,
            markNames: configuration.markNames, burstGap: configuration.burstGap, savedSearches: configuration.savedSearches
        )
        state.downloadVariant = configuration.downloadVariant
        state.purgeLimit = configuration.purgeLimit
        state.keepOriginals = configuration.keepOriginals
        state.apiURL = client.baseURL
        (changes, changed) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Restores the outbox and the queue, puts the catalogue's photos on screen, then checks them
    /// against the server when the refresh policy says; loads the account and the tags, and starts
    /// sending edits left from the last session. A provisional session does only the first two until
    /// `confirm(_:)`.
    public func start() throws {
        try outbox.settleMadeTags()
        let saved = try outbox.database.savedState(library: configuration.library)
        if !saved.pendingTags.isEmpty { send(.pendingTagsRestored(saved.pendingTags)) }
        if !saved.edits.isEmpty { send(.photoEditsRestored(saved.edits)) }
        send(.sessionStarted(
            outbox: saved.deltas, nextSequence: saved.nextSequence, downloads: saved.downloads, nextDownloadID: saved.nextDownloadID
        ))
        sender = TagSender(client: client, outbox: outbox, catalogue: catalogue, freshness: configuration.tagFreshness) { [weak self] event in
            await self?.post(event)
        }
        editSender = EditSender(client: client, outbox: editOutbox) { [weak self] event in
            await self?.post(event)
        }
        background { _ in await self.loadCatalogue() }
        background { [client] _ in
            for await limit in await client.rateLimitUpdates() { self.send(.rateLimitChanged(limit)) }
        }
        if isConfirmed { connect(account: configuration.account) }
    }

    /// Reads the catalogue off the main actor; a file that fails to read is set aside and an empty one
    /// takes its place.
    private nonisolated(nonsending) func loadCatalogue() async {
        let catalogue = self.catalogue
        var notice = catalogueNotice
        catalogueNotice = nil
        var snapshot: Catalogue.Snapshot
        do {
            snapshot = try await Task.detached { try catalogue.snapshot() }.value
        } catch {
            configuration.logger.error("catalogue: \(error)")
            do {
                let (fresh, rebuiltNotice) = try catalogue.rebuilt(library: configuration.library, after: error)
                self.catalogue = fresh
                await sender?.use(fresh)
                notice = rebuiltNotice
            } catch {
                notice = "The local catalogue cannot be written (\(error)); photos are listed from the server and not kept."
            }
            snapshot = Catalogue.Snapshot()
        }
        if let notice { configuration.logger.warning("catalogue: \(notice)") }
        send(.catalogueLoaded(snapshot, notice: notice))
        startEditSender()
    }

    /// Applies an event and runs what it asks for. Called on the session's actor.
    public func send(_ event: BrowserEvent) {
        isolation.preconditionIsolated("a BrowserSession is used on the actor it was made on")
        guard !isStopped else { return }
        let effects = state.apply(event)
        onEvent?(event, state)
        for effect in effects { perform(effect) }
        changed.yield()
    }

    /// Wakes the reader of `changes` with nothing changed, so something drawn from the clock as well as
    /// the state (a script's speed and time left) is drawn again while nothing arrives.
    public func wakeReader() {
        changed.yield()
    }

    /// Queues a catalogue write after those before it; stopping waits for them rather than cancelling
    /// them, so a sent edit or a purge is in the catalogue the next photopick reads.
    private func writeCatalogue(_ write: @escaping @Sendable (Catalogue) async throws -> Void) {
        let catalogue = catalogue
        let previous = catalogueWriter
        catalogueWriter = Task { [logger = configuration.logger] in
            await previous?.value
            do { try await write(catalogue) } catch { logger.error("catalogue: \(error)") }
        }
    }

    /// Writes the scores waiting, in batches, until none are left.
    private nonisolated(nonsending) func writeFocusScores() async {
        while !focusToSave.isEmpty {
            let batch = focusToSave.map { (photoID: $0.key, score: $0.value) }
            focusToSave = [:]
            do { try await catalogue.save(focusScores: batch) } catch { configuration.logger.error("catalogue: \(error)") }
        }
        focusWriter = nil
    }

    /// Stops everything in flight. Unsent edits stay in the outbox and unfinished downloads in the
    /// queue (with their `.part` files), so the next start picks them up.
    public nonisolated(nonsending) func stop() async {
        isStopped = true
        await focusWriter?.value  // scores measured this session are kept
        await catalogueWriter?.value  // so are sent edits and purges
        let tasks = [loadTask].compactMap { $0 } + downloadRuns.values.map(\.task) + backgroundTasks
        tasks.forEach { $0.cancel() }
        for task in tasks { await task.value }
        changed.finish()
    }

    /// Runs `operation` on the session's actor until the session stops.
    func background(_ operation: @escaping @Sendable (isolated any Actor) async -> Void) {
        backgroundTasks.append(onSession(operation))
    }

    /// Starts a task that runs `operation` on the session's actor, coming back to it after every wait.
    @discardableResult
    func onSession(_ operation: @escaping @Sendable (isolated any Actor) async -> Void) -> Task<Void, Never> {
        Task { [isolation] in await Self.enter(isolation, operation) }
    }

    /// Sends an event from a task that is not on the session's actor.
    func post(_ event: BrowserEvent) async {
        await Self.enter(isolation) { _ in self.send(event) }
    }

    private static func enter(_ actor: isolated any Actor, _ operation: @Sendable (isolated any Actor) async -> Void) async {
        await operation(actor)
    }

    /// A one-line message for an error: its `userMessage` when it has one, else its description.
    public static func describe(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? String(describing: error)
    }

    // MARK: - Effects

    func perform(_ effect: BrowserEffect) {
        if !isConfirmed, hold(effect) { return }
        switch effect {
        case .walkLibrary: walkLibrary()
        case .scheduleRefresh(let delay):
            background { _ in
                try? await Task.sleep(for: delay)
                if !Task.isCancelled { self.send(.refreshDue) }
            }
        case .cancelLoading:
            loadTask?.cancel()
            loadTask = nil
        case .recordTagDeltas(let deltas): record(deltas)
        case .recordTagCreation(let pending, let deltas): record(deltas, creating: pending)
        case .recordPhotoEdits(let edits): record(edits)
        case .purge(let items, let keepOriginals): purge(items, keepOriginals: keepOriginals)
        case .forgetPhotos(let ids):
            // Their outbox rows go too: nothing is left to send for a deleted photo.
            do {
                try outbox.removeAll(photoIDs: ids)
                try editOutbox.removeAll(photoIDs: ids)
            } catch {
                configuration.logger.error("outbox: \(error)")
            }
            writeCatalogue { try await $0.remove(photoIDs: ids) }
        case .savePhoto(let photo):
            writeCatalogue { try await $0.save(photo: photo) }
        case .saveFocusScore(let photoID, let score):
            focusToSave[photoID] = score
            if focusWriter == nil { focusWriter = onSession { _ in await self.writeFocusScores() } }
        case .discardTagDeltas(let tagID):
            do { try outbox.removeAll(tagID: tagID) } catch { configuration.logger.error("outbox: \(error)") }
        case .createTag(let name, let color): createTag(name: name, color: color)
        case .renameTag(let id, let name): updateTag(id: id, TagUpdate(name: name))
        case .recolourTag(let id, let color): updateTag(id: id, TagUpdate(color: .some(color)))
        case .deleteTag(let id): deleteTag(id: id)
        case .checkSpace(let items, let directory, let needed):
            send(.downloadSpaceChecked(items, needed: needed, free: DownloadLocation.freeSpace(for: directory)))
        case .checkFinishedDownloads(let items, let request): checkFinishedDownloads(items, then: request)
        case .forgetWrittenFiles(let paths):
            // Files that changed since photopick wrote them are the user's now.
            do { try forgetWrittenFiles(paths) } catch { configuration.logger.error("written files: \(error)") }
        case .saveDownloads(let items): saveDownloads(items)
        case .deleteDownloads(let items, let discardPartials): deleteDownloads(items, discardPartials: discardPartials)
        case .startDownload(let item): startDownload(item)
        case .stopDownload(let id):
            downloadRuns[id]?.task.cancel()
        case .expireMessage(let id):
            let lifetime = configuration.messageLifetime
            background { _ in
                try? await Task.sleep(for: lifetime)
                self.send(.messageExpired(id: id))
            }
        }
    }

    /// Walks every page at the listing's priority, keeping each page and the cursor after it in the
    /// catalogue before showing it, so an interrupted walk resumes where it stopped. When the walk is
    /// complete, the photos it did not see are the ones deleted on the server.
    private func walkLibrary() {
        loadTask?.cancel()
        let catalogue = catalogue
        let client = client
        // The walk runs with the listing's task-local lane, off the session's actor; each event goes
        // back to it (`post`).
        loadTask = Task {
            await RequestLane.$current.withValue(.listing) {
                var walk: Catalogue.Walk?
                do {
                    var current = try catalogue.beginWalk()
                    walk = current
                    // Each page is asked for when the one before it is handed over (one is fetched ahead).
                    var askedAt = Date()
                    for try await page in PageStream<Photo>(client: client, startingAt: current.cursor) {
                        // A page already in hand when loading was paused stays out, so "paused" means paused.
                        guard !Task.isCancelled else { return }
                        let next = page.hasNextPage ? page.pagination.nextCursor : nil
                        current.seen += page.data.count
                        try await catalogue.save(page: page.data, nextCursor: next, walk: current, at: askedAt)
                        askedAt = Date()
                        current.cursor = next
                        walk = current
                        // Saved, so shown: the next walk starts after it.
                        await self.post(.photosArrived(page.data, nextCursor: next))
                    }
                    guard !Task.isCancelled else { return }
                    let deleted = try await catalogue.completeWalk(current)
                    await self.post(.photosFinished(deleted: deleted))
                } catch is InvalidCursorError {
                    if let walk { try? catalogue.restartWalk(walk) }
                    await self.post(.photosCursorRefused)
                } catch APIError.cancelled {
                    return
                } catch let error as APIError {
                    await self.post(.photosFailed(Self.describe(error)))
                } catch {
                    await self.post(.photosFailed("the catalogue could not be written (\(error))"))
                }
            }
        }
    }

    /// Writes photo edits to their outbox before the event's handling returns; if that fails, nothing is
    /// sent and the screen goes back.
    private func record(_ edits: [PhotoEdit]) {
        do {
            try editOutbox.record(edits)
            editSender?.nudge()
        } catch {
            configuration.logger.error("edit outbox: \(error)")
            send(.photoEditsNotRecorded(edits, reason: String(describing: error)))
        }
    }

    /// Writes deltas, with the tags they wait for, to the outbox before anything is sent and before the
    /// event's handling returns; if that fails, nothing is sent and the screen goes back.
    private func record(_ deltas: [TagDelta], creating pending: [PendingTag] = []) {
        do {
            try outbox.record(deltas, creating: pending)
            sender?.nudge()
        } catch {
            configuration.logger.error("outbox: \(error)")
            send(.tagDeltasNotRecorded(deltas, reason: String(describing: error)))
        }
    }
}
