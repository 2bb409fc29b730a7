import Foundation
import PhotoPickKit

/// Fetches, caches and decodes previews in the background, in the order the views want them.
///
/// The views call `want` with what they show now, most important first, then what is likely next.
/// Work on anything no longer wanted is cancelled at once, and new work starts only after the wanted
/// list has held still for the debounce, so holding a key never builds a backlog. Finished previews
/// land in `store`, and `updates` yields after each one so the screen can be drawn again.
public actor PreviewLoader {
    /// Gets a photo's `web` rendition from the server, as `APIClient.fetchVariant` does.
    public typealias Fetch = @Sendable (_ photoID: Int) async throws(APIError) -> FetchedVariant

    /// The decoded previews, for the views to read synchronously.
    public nonisolated let store: PreviewStore
    /// Yields after each preview lands in the store.
    public nonisolated let updates: AsyncStream<Void>

    private let fetch: Fetch
    private let disk: PreviewDiskCache?
    /// What previews are drawn from: the smallest rendition that fits any pane.
    private let variant = DownloadSize.web.rawValue
    private let decoder = PreviewDecoder()
    private let debounce: Duration
    /// Previews fetched and decoded at once.
    private let maximumJobs = 2
    private let continuation: AsyncStream<Void>.Continuation

    private var wanted: [PreviewRequest] = []
    /// Work under way, with a number that tells a restarted request's task from the one cancelled before it.
    private var running: [PreviewRequest: (job: Int, task: Task<Void, Never>)] = [:]
    private var timer: Task<Void, Never>?
    /// Whether the wanted list has held still for the debounce; until then nothing new starts, not even
    /// when other work finishes.
    private var settled = false
    private var isStopped = false
    /// Work started and work cancelled before it finished, for tests and the benchmark.
    public private(set) var started = 0
    /// Work cancelled before it finished.
    public private(set) var cancelled = 0

    /// - Parameters:
    ///   - fetch: gets a photo's `web` rendition from the server; normally `APIClient.fetchVariant`.
    ///   - disk: the disk cache, or nil to keep nothing on disk.
    ///   - debounce: how long the wanted list must hold still before new work starts.
    public init(
        store: PreviewStore = PreviewStore(), disk: PreviewDiskCache?, debounce: Duration = .milliseconds(30),
        fetch: @escaping Fetch
    ) {
        self.store = store
        self.disk = disk
        self.debounce = debounce
        self.fetch = fetch
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// A loader that fetches through `client`, so the pacer, retries and key rules apply.
    public init(client: APIClient, disk: PreviewDiskCache?, store: PreviewStore = PreviewStore()) {
        self.init(store: store, disk: disk) { photoID async throws(APIError) in
            try await client.fetchVariant(photoID: photoID, size: .web)
        }
    }

    /// Replaces what is wanted, most important first. Work on previews not in `requests` is cancelled
    /// now; new work starts once the list has stayed the same for the debounce.
    public func want(_ requests: [PreviewRequest]) {
        guard !isStopped else { return }
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
        let debounce = self.debounce
        timer = Task { [weak self] in
            try? await Task.sleep(for: debounce)
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
        running = [:]
        wanted = []
        continuation.finish()
    }

    private func startWork() {
        guard settled, !isStopped else { return }
        while running.count < maximumJobs,
              let next = wanted.first(where: { running[$0] == nil && !store.holds($0) }) {
            started += 1
            let job = started
            running[next] = (job, Task { [weak self] in
                guard let self else { return }
                let state = await self.load(next)
                await self.finish(next, job: job, state)
            })
        }
    }

    private func finish(_ request: PreviewRequest, job: Int, _ state: PreviewState?) {
        guard running[request]?.job == job else { return }  // cancelled meanwhile: its result is stale
        running[request] = nil
        wanted.removeAll { $0 == request }
        if let state {
            store.store(state, for: request)
            continuation.yield()
        }
        startWork()
    }

    /// The bytes from the disk cache or the server, decoded to the request's box; nil when cancelled.
    private nonisolated func load(_ request: PreviewRequest) async -> PreviewState? {
        if let cached = disk?.bytes(photoID: request.photoID, variant: variant) {
            if Task.isCancelled { return nil }
            if let image = try? decoder.decode(cached.bytes, fitting: request.box).image { return .loaded(image) }
            // Damaged on disk (or a bad answer kept earlier): drop it and ask the server once more.
            disk?.remove(photoID: request.photoID, variant: variant)
        }
        let fetched: FetchedVariant
        do {
            fetched = try await fetch(request.photoID)
        } catch .cancelled {
            return nil
        } catch {
            return Task.isCancelled ? nil : .failed(.unavailable(error.userMessage))
        }
        if Task.isCancelled { return nil }
        // A disk that is full or read-only costs the cache, not the preview.
        try? disk?.store(photoID: request.photoID, variant: variant, etag: fetched.etag, bytes: fetched.bytes)
        do {
            return .loaded(try decoder.decode(fetched.bytes, fitting: request.box).image)
        } catch {
            return .failed(error)
        }
    }
}
