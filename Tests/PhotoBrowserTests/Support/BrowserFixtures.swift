import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport

/// A session against `server`, with its own state and download folders, started; stopped after `body`.
/// It lives on the main actor, as in the app, and its timers (message expiry, refresh, the outboxes'
/// backoff) run on `clock`, which stands still unless the test advances it; the client's waits are the
/// network's own.
@MainActor
func withSession<Result>(
    _ server: PhotoPickServer, key: String? = nil, state: URL = TestServer.temporaryDirectory(),
    downloads: URL = TestServer.temporaryDirectory(), library: String = "test", clock: TestClock = TestClock(),
    retryPolicy: RetryPolicy = .fast, concurrency: Int = 4, refresh: RefreshPolicy = .onStart, stampSettling: Duration = FileStamp.settling,
    _ observe: ((BrowserInput, BrowserState) -> Void)? = nil, _ body: (BrowserSession) async throws -> Result
) async throws -> Result {
    let client = APIClient.forTesting(server, key: key, retryPolicy: retryPolicy)
    var configuration = BrowserSession.Configuration(
        library: library, stateDirectory: state, downloadDirectory: downloads, concurrency: concurrency,
        messageLifetime: .seconds(60), clock: Timekeeper(clock), refresh: refresh
    )
    configuration.stampSettling = stampSettling
    let session = try BrowserSession(client: client, configuration: configuration)
    session.onEvent = observe
    do {
        try session.start()
        let result = try await body(session)
        await session.stop()
        try? await client.shutdown()
        return result
    } catch {
        await session.stop()
        try? await client.shutdown()
        throw error
    }
}

extension BrowserSession {
    /// Returns once `condition` holds for the state, looking again at each of `changes`' wake-ups (never
    /// on a timer); a state that never comes is ended by the suite's time limit. Throws when the session
    /// stops first.
    func waitUntil(_ what: String, _ condition: (BrowserState) -> Bool) async throws {
        if condition(state) { return }
        for await _ in changes {
            if condition(state) { return }
        }
        throw NeverCame(what: what, status: state.messages.current?.text)
    }

    /// Waits for loading to finish.
    func waitForLibrary() async throws {
        try await waitUntil("the library to load") { $0.loading.phase == .complete && $0.tags.isLoaded }
    }
}

/// The session stopped before the state waited for came.
struct NeverCame: Error, CustomStringConvertible {
    let what: String
    let status: String?
    var description: String { "the session stopped before \(what); status line: \(status ?? "empty")" }
}

/// Photos made up for pure-logic tests.
enum Sample {
    static func photo(
        _ id: Int, _ filename: String, bytes: Int64 = 1_000, takenAt: TimeInterval? = nil, tags: [Int] = [],
        title: String? = nil, camera: String? = nil, lens: String? = nil
    ) -> Photo {
        var photo = Photo(
            id: id, filename: filename, bytes: bytes,
            takenAt: takenAt.map(Date.init(timeIntervalSince1970:)), tagIDs: tags
        )
        photo.title = title
        photo.camera = camera.map { Photo.Camera(make: nil, model: $0) }
        photo.lens = lens
        return photo
    }

    static let tags = [
        PhotoPickKit.Tag(id: 1, name: "Favourite", color: "#e94b60"),
        PhotoPickKit.Tag(id: 2, name: "Portfolio", color: "#3b82f6"),
        PhotoPickKit.Tag(id: 3, name: "Print", color: nil),
    ]

    /// A state with `photos` loaded, the sample tags, and ten rows in view.
    static func state(_ photos: [Photo]) -> BrowserState {
        var state = BrowserState(downloadDirectory: URL(fileURLWithPath: "/tmp/photopick-test-downloads"))
        state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        state.apply(.tags(.tagsLoaded(tags)))
        state.apply(.catalogue(.photosArrived(photos, nextCursor: nil)))
        state.apply(.catalogue(.photosFinished(deleted: [], at: now)))
        state.apply(.browsing(.viewResized(rows: 10)))
        return state
    }

    /// The moment pure-logic tests apply their events at: the test epoch, as a test clock's start.
    static let now = Timekeeper.testEpoch
}

extension BrowserState {
    /// Filenames in list order.
    var listedNames: [String] {
        list.libraryIndices.map { library[$0].filename }
    }

    /// Filenames of selected photos, in library order.
    var selectedNames: [String] {
        selection.indices.map { library[$0].filename }
    }

    /// The filename under the cursor.
    var currentName: String? {
        list.currentIndex.map { library[$0].filename }
    }
}

extension BrowserState {
    /// Applies an event at the test epoch (`Sample.now`), the moment pure-logic tests live in.
    @discardableResult
    mutating func apply(_ event: BrowserEvent) -> [BrowserEffect] {
        apply(event, at: Sample.now)
    }

    /// Applies a report at the test epoch, as the session's effects would send it.
    @discardableResult
    mutating func apply(_ report: BrowserReport) -> [BrowserEffect] {
        apply(report, at: Sample.now)
    }

    /// The header's summary of the library at the test epoch: the views read it at the frame's moment
    /// (`ViewContext.now`); tests read it at theirs.
    var loadSummary: String { loading.summary(count: library.count, now: Sample.now) }

    /// The header's summary at `now`.
    func loadSummary(at now: Date) -> String { loading.summary(count: library.count, now: now) }
}

extension PhotoLibrary {
    /// The photo at a library index, whole: what a test reads of it.
    subscript(index: Int) -> Photo { photo(at: index) }
}

extension Catalogue.Snapshot {
    /// Every photo the snapshot holds, by id: the library file's, with the rows changed since on top.
    var allPhotos: [Photo] {
        var byID: [Int: Photo] = [:]
        for index in 0..<library.storedCount where !library.isRemoved(index) { byID[library.id(at: index)] = library.photo(at: index) }
        for photo in photos { byID[photo.id] = photo }
        for id in gone { byID[id] = nil }
        return byID.keys.sorted().map { byID[$0]! }
    }

    /// Every focus score the snapshot holds, by photo id.
    var allFocusScores: [Int: Double] {
        var scores: [Int: Double] = [:]
        for index in 0..<library.storedCount { if let score = library.focusScore(at: index) { scores[library.id(at: index)] = score } }
        return scores.merging(focusScores) { $1 }
    }
}
