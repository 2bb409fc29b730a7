import Foundation
import PhotoImaging
import PhotoPickKit

/// Fetches, caches and decodes previews in the background, in the order the views want them.
///
/// The views call `want` with what they show now, most important first, then what is likely next.
/// Work on anything no longer wanted is cancelled at once, and new work starts only after the wanted
/// list has held still for the debounce, so holding a key never builds a backlog. Finished previews
/// land in `store`, and `updates` yields after each one so the screen can be drawn again.
public actor PreviewLoader {
    /// Gets a photo's rendition from the server, as `APIClient.fetchVariant` does.
    public typealias Fetch = @Sendable (_ photoID: Int, _ size: DownloadSize) async throws(APIError) -> FetchedVariant
    /// Makes a decoded preview ready for the screen, off the main actor: `source` is the file as fetched.
    public typealias Render = @Sendable (_ request: PreviewRequest, _ image: PreviewImage, _ source: [UInt8]) -> (any PreviewRendering)?

    /// Renders `image` for `request` with `render`, its clipping drawn on it when the request asks: the
    /// one place the overlay is applied, for previews and the loupe alike. A clipped image goes without
    /// its file, so iTerm2 is sent the pixels, not the file as fetched.
    static func rendered(_ request: PreviewRequest, _ image: PreviewImage, source: [UInt8], with render: Render?) -> (any PreviewRendering)? {
        guard let render else { return nil }
        return request.clipping ? render(request, image.showingClipping(), []) : render(request, image, source)
    }

    /// The decoded previews, for the views to read synchronously.
    public nonisolated let store: PreviewStore
    /// Yields after each preview lands in the store.
    public nonisolated let updates: AsyncStream<Void>
    /// The focus score of each rendition decoded, as the preview lands.
    public nonisolated let focusScores: AsyncStream<(photoID: Int, score: Double)>

    private let renditions: RenditionSource
    private let render: Render?
    private let decoder = PreviewDecoder()
    private let debounce: Duration
    private let clock: Timekeeper
    /// Previews fetched and decoded at once.
    private let maximumJobs = 2
    private let continuation: AsyncStream<Void>.Continuation
    private let focusContinuation: AsyncStream<(photoID: Int, score: Double)>.Continuation

    private var wanted: [PreviewRequest] = []
    /// Which lane of the rate-limit budget each wanted preview's fetch goes in.
    private var lanes: [PreviewRequest: RequestLane] = [:]
    /// Work under way, with a number that tells a restarted request's task from the one cancelled before it.
    private var running: [PreviewRequest: (job: Int, task: Task<Void, Never>)] = [:]
    private var timer: Task<Void, Never>?
    /// Photos whose focus this loader has measured, from their `web` rendition, once a session.
    private var measured: Set<Int> = []
    /// Photos previewed from another rendition whose `web` one is being fetched (the disk cache first)
    /// to measure it, so every score in a burst comes from the same rendition.
    private var measuring: [Int: Task<Void, Never>] = [:]
    /// Whether the wanted list has held still for the debounce; until then nothing new starts, not even
    /// when other work finishes.
    private var settled = false
    private var isStopped = false
    /// Work started and work cancelled before it finished, for tests and the benchmark.
    public private(set) var started = 0
    /// Work cancelled before it finished.
    public private(set) var cancelled = 0

    /// - Parameters:
    ///   - fetch: gets a photo's rendition from the server; normally `APIClient.fetchVariant`.
    ///   - store: where finished previews go; a new one timed on `clock` unless given.
    ///   - disk: the disk cache, or nil to keep nothing on disk.
    ///   - clock: what the debounce waits on.
    ///   - debounce: how long the wanted list must hold still before new work starts.
    ///   - render: makes each decoded preview ready for the screen; nil keeps the pixels alone.
    public init(
        store: PreviewStore? = nil, disk: PreviewDiskCache?, clock: Timekeeper, debounce: Duration = .milliseconds(30),
        render: Render? = nil, fetch: @escaping Fetch
    ) {
        self.store = store ?? PreviewStore(clock: clock)
        self.clock = clock
        renditions = RenditionSource(disk: disk, fetch: fetch)
        self.debounce = debounce
        self.render = render
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
        (focusScores, focusContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(256))
    }

    /// A loader that fetches through `client`, so the pacer, retries and key rules apply, and waits on
    /// the client's clock.
    public init(client: APIClient, disk: PreviewDiskCache?, store: PreviewStore? = nil, render: Render? = nil) {
        self.init(store: store, disk: disk, clock: client.clock, render: render) { photoID, size async throws(APIError) in
            try await client.fetchVariant(photoID: photoID, size: size)
        }
    }

    /// The smallest rendition with at least the box's pixels on its long edge (the server's are 1024,
    /// 1920 and 3508), so a preview is never enlarged where a larger rendition exists.
    public static func variant(for box: PixelSize) -> DownloadSize {
        let edge = max(box.width, box.height)
        return edge <= 1024 ? .web : edge <= 1920 ? .fhd : .a4
    }

    /// Replaces what is wanted, most important first. Work on previews not in `requests` is cancelled
    /// now; new work starts once the list has stayed the same for the debounce.
    ///
    /// The first `shown` are on screen: the first of all is the photo under the cursor, fetched as the
    /// user's own request, the rest of those as what is visible, and the ones after them as prefetch.
    public func want(_ requests: [PreviewRequest], shown: Int = 1) {
        guard !isStopped else { return }
        lanes = [:]
        for (position, request) in requests.enumerated() where lanes[request] == nil {
            lanes[request] = position == 0 ? .user : position < shown ? .visible : .prefetch
        }
        var seen = Set<PreviewRequest>()
        let missing = requests.filter { seen.insert($0).inserted && !store.holds($0) }
        for (request, work) in running where !seen.contains(request) {
            work.task.cancel()
            running[request] = nil
            cancelled += 1
        }
        guard missing != wanted else { return }
        wanted = missing
        settled = false
        timer?.cancel()
        guard !missing.isEmpty else { return }
        let debounce = self.debounce, clock = clock
        timer = Task { [weak self] in
            guard (try? await clock.sleep(for: debounce)) != nil else { return }
            await self?.settle()
        }
    }

    /// The debounce ran out; a timer cancelled by a newer list (even one already waiting for the actor)
    /// does nothing.
    private func settle() {
        guard !Task.isCancelled, !isStopped else { return }
        settled = true
        startWork()
    }

    /// Stops all work; nothing lands in the store afterwards.
    public func stop() {
        isStopped = true
        timer?.cancel()
        for work in running.values { work.task.cancel() }
        for task in measuring.values { task.cancel() }
        running = [:]
        measuring = [:]
        wanted = []
        continuation.finish()
        focusContinuation.finish()
    }

    private func startWork() {
        guard settled, !isStopped else { return }
        while running.count < maximumJobs,
              let next = wanted.first(where: { running[$0] == nil && !store.holds($0) }) {
            started += 1
            let job = started
            let lane = lanes[next] ?? .prefetch
            let measure = Self.variant(for: next.box) == .web && !measured.contains(next.photoID)
            running[next] = (job, Task { [weak self] in
                guard let self else { return }
                let state = await RequestLane.$current.withValue(lane) { await self.load(next, measure: measure) }
                await self.finish(next, job: job, state)
            })
        }
    }

    private func finish(_ request: PreviewRequest, job: Int, _ result: Loaded?) {
        guard running[request]?.job == job else { return }  // cancelled meanwhile: its result is stale
        running[request] = nil
        wanted.removeAll { $0 == request }
        if let result {
            store.store(result.state, rendering: result.rendering, histogram: result.histogram, for: request)
            continuation.yield()
            if let focus = result.focus, measured.insert(request.photoID).inserted { focusContinuation.yield((request.photoID, focus)) }
            if case .loaded = result.state, Self.variant(for: request.box) != .web { startMeasuring(request.photoID) }
        }
        startWork()
    }

    /// Measures a photo previewed from `fhd` or `a4` on its `web` rendition, in the background lane.
    private func startMeasuring(_ photoID: Int) {
        guard !isStopped, !measured.contains(photoID), measuring[photoID] == nil else { return }
        measuring[photoID] = Task { [weak self] in
            guard let self else { return }
            let focus = await RequestLane.$current.withValue(.prefetch) { await self.webFocus(photoID) }
            await self.measuredOnWeb(photoID, focus)
        }
    }

    private nonisolated func webFocus(_ photoID: Int) async -> Double? {
        let decoder = decoder
        switch try? await renditions.rendition(photoID: photoID, cached: [.web], fetching: .web, read: { FocusScore.measure($0, decoder: decoder) }) {
        case .cached(let score, _)?: return score
        case .fetched(let bytes)?: return FocusScore.measure(bytes, decoder: decoder)
        case nil: return nil
        }
    }

    private func measuredOnWeb(_ photoID: Int, _ focus: Double?) {
        measuring[photoID] = nil
        guard !isStopped, let focus, measured.insert(photoID).inserted else { return }
        focusContinuation.yield((photoID, focus))
    }

    /// A finished preview: the state to store, its rendering for the screen, its histogram, and the
    /// rendition's focus score.
    private typealias Loaded = (state: PreviewState, rendering: (any PreviewRendering)?, histogram: Histogram?, focus: Double?)

    /// The bytes from the disk cache or the server, decoded to the request's box and rendered; nil when cancelled.
    private nonisolated func load(_ request: PreviewRequest, measure: Bool) async -> Loaded? {
        let size = Self.variant(for: request.box), decoder = decoder
        let found: RenditionSource.Found<(image: PreviewImage, bytes: [UInt8])>?
        do {
            found = try await renditions.rendition(photoID: request.photoID, cached: [size], fetching: size) { bytes in
                (try? decoder.decode(bytes, fitting: request.box).image).map { ($0, bytes) }
            }
        } catch .cancelled {
            return nil
        } catch {
            return Task.isCancelled ? nil : (.failed(.unavailable(error.userMessage)), nil, nil, nil)
        }
        switch found {
        case .cached(let cached, _)?:
            return finished(request, cached.image, cached.bytes, measure: measure)
        case .fetched(let bytes)?:
            do {
                return finished(request, try decoder.decode(bytes, fitting: request.box).image, bytes, measure: measure)
            } catch {
                return (.failed(error), nil, nil, nil)
            }
        case nil:
            return nil
        }
    }

    private nonisolated func finished(_ request: PreviewRequest, _ image: PreviewImage, _ source: [UInt8], measure: Bool) -> Loaded? {
        if Task.isCancelled { return nil }
        // The histogram of the pixels on screen (a millisecond for a side pane's), before any clipping is
        // drawn on them for the screen. The focus: a few milliseconds, for the first `web` rendition of a
        // photo decoded this session (`measured`).
        return (.loaded(image), Self.rendered(request, image, source: source, with: render), Histogram(image),
                measure ? FocusScore.measure(source, decoder: decoder) : nil)
    }
}
