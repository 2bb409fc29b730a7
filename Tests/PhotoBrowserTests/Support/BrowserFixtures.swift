import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport

/// The actor the session tests run on, and their sessions with them: not the main actor, which the app
/// keeps for drawing the terminal. Like the main actor in the app it has a thread of its own (a serial
/// dispatch queue), so a session's events are not queued behind the CPU-bound tests on the shared pool.
@globalActor actor SessionTests {
    static let shared = SessionTests()
    private static let executor = QueueExecutor(label: "photopick.session-tests")

    nonisolated var unownedExecutor: UnownedSerialExecutor { Self.executor.asUnownedSerialExecutor() }
}

/// Runs an actor's jobs in order on one dispatch queue.
final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    init(label: String) { queue = DispatchQueue(label: label) }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job), executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func asUnownedSerialExecutor() -> UnownedSerialExecutor { UnownedSerialExecutor(ordinary: self) }
}

/// A session against `server`, with its own state and download folders, started; stopped after `body`.
/// The session lives on the caller's actor.
func withSession<Result>(
    _ server: PhotoPickServer, key: String? = nil, state: URL = TestServer.temporaryDirectory(),
    downloads: URL = TestServer.temporaryDirectory(), library: String = "test",
    retryPolicy: RetryPolicy = .fast, concurrency: Int = 4, refresh: RefreshPolicy = .onStart, stampSettling: Duration = FileStamp.settling, _ observe: ((BrowserEvent, BrowserState) -> Void)? = nil,
    isolation: isolated (any Actor)? = #isolation, _ body: (BrowserSession) async throws -> Result
) async throws -> Result {
    let client = APIClient.forTesting(server, key: key, retryPolicy: retryPolicy)
    var configuration = BrowserSession.Configuration(
        library: library, stateDirectory: state, downloadDirectory: downloads, concurrency: concurrency,
        messageLifetime: .seconds(60), refresh: refresh
    )
    configuration.stampSettling = stampSettling
    let session = try BrowserSession(client: client, configuration: configuration, isolation: isolation)
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
    /// Waits until `condition` holds for the state, looking again at each of `changes`' wake-ups; throws
    /// when it still does not after `timeout`, which only guards against a hang.
    /// Runs on the caller's actor, the session's own.
    func waitUntil(
        _ what: String, within timeout: Duration = .seconds(60), isolation: isolated (any Actor)? = #isolation,
        _ condition: (BrowserState) -> Bool
    ) async throws {
        let deadline = ContinuousClock.now + timeout
        // Wakes this reader once the time is up, so a state that never changes again still ends the wait.
        let alarm = Task { [weak self] in
            guard (try? await Task.sleep(until: deadline)) != nil else { return }
            self?.wakeReader()
        }
        defer { alarm.cancel() }
        if condition(state) { return }
        for await _ in changes {
            if condition(state) { return }
            if ContinuousClock.now >= deadline { break }
        }
        throw TimedOut(what: what, status: state.messages.current?.text)
    }

    /// Waits for loading to finish.
    func waitForLibrary(within timeout: Duration = .seconds(120), isolation: isolated (any Actor)? = #isolation) async throws {
        try await waitUntil("the library to load", within: timeout) { $0.loading.phase == .complete && $0.tags.isLoaded }
    }
}

struct TimedOut: Error, CustomStringConvertible {
    let what: String
    let status: String?
    var description: String { "timed out waiting for \(what); status line: \(status ?? "empty")" }
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
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [], nextDownloadID: 1))
        _ = state.apply(.tagsLoaded(tags))
        _ = state.apply(.photosArrived(photos, nextCursor: nil))
        _ = state.apply(.photosFinished())
        _ = state.apply(.viewResized(rows: 10))
        return state
    }
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
    /// The header's summary of the library now, on the wall clock: the views read it at the frame's
    /// moment (`ViewContext.now`); tests read it at theirs.
    var loadSummary: String { loading.summary(count: library.count, now: Date()) }
}
