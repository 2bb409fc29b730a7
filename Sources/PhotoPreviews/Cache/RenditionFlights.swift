import PhotoPickKit

/// Rendition fetches that outlive the want that started them: a fetch once started finishes into the
/// disk cache even when whoever waited for it goes (the cursor moved on), and whoever wants the same
/// rendition meanwhile waits for that fetch instead of starting another. A cursor moving back and forth
/// over the same photos so costs each rendition once.
///
/// Bounded twice: at most `detachedLimit` fetches finish with no one waiting (one more is cancelled, as
/// before), each at most a rendition's size (`web` is about 200 kB), and what they file is held to the
/// disk cache's own byte limit. Without a disk cache there is nowhere to finish into, and a fetch no one
/// waits for is cancelled at once. A finishing fetch keeps the rate-limit lane it started in.
actor RenditionFlights {
    /// A photo's rendition, as the disk cache names it.
    struct Key: Hashable, Sendable {
        var photoID: Int
        var variant: String
    }

    /// One fetch under way, and who waits for it.
    private struct Flight {
        /// Tells this fetch from a later one for the same rendition.
        let number: Int
        let task: Task<Void, Never>
        var waiters: [Int: CheckedContinuation<Result<FetchedVariant, APIError>?, Never>] = [:]
    }

    /// The default bound on fetches finishing with no one waiting: the three fetched ahead and one more.
    static let defaultDetachedLimit = 4

    let disk: PreviewDiskCache?
    let detachedLimit: Int
    private var flights: [Key: Flight] = [:] {
        didSet { wakeWatchers() }
    }
    /// Numbers flights and waiters alike.
    private var counter = 0
    /// Those waiting for the flights to change (`waitUntil`).
    private var watchers: [CheckedContinuation<Void, Never>] = []

    init(disk: PreviewDiskCache?, detachedLimit: Int = RenditionFlights.defaultDetachedLimit) {
        self.disk = disk
        self.detachedLimit = detachedLimit
    }

    /// Fetches under way that no one waits for.
    var detachedCount: Int { flights.values.count { $0.waiters.isEmpty } }

    /// The flights as a test or the bench sees them: how many are under way, how many no one waits
    /// for, and how many wait for each.
    struct Status: Sendable {
        let flying: Int
        let detached: Int
        let waiters: [Key: Int]
    }

    /// Returns once `condition` holds of the flights, looking again at each change (never on a timer).
    func waitUntil(_ condition: @Sendable (Status) -> Bool) async {
        while !condition(Status(flying: flights.count, detached: detachedCount, waiters: flights.mapValues(\.waiters.count))) {
            await withCheckedContinuation { watchers.append($0) }
        }
    }

    private func wakeWatchers() {
        guard !watchers.isEmpty else { return }
        let woken = watchers
        watchers = []
        for watcher in woken { watcher.resume() }
    }

    /// The rendition, from the fetch under way for `key` or from `fetch` started now (and filed on disk
    /// when it lands); throws `.cancelled` when the caller's task is cancelled first, the fetch going on.
    func fetch(
        _ key: Key, _ fetch: @escaping @Sendable () async throws(APIError) -> FetchedVariant
    ) async throws(APIError) -> FetchedVariant {
        let number = flights[key]?.number ?? start(key, fetch)
        counter += 1
        let waiter = counter
        let outcome: Result<FetchedVariant, APIError>? = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<FetchedVariant, APIError>?, Never>) in
                if Task.isCancelled { return continuation.resume(returning: nil) }
                flights[key]?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.leave(key, waiter: waiter) }
        }
        switch outcome {
        case .success(let fetched)?: return fetched
        case .failure(let error)?: throw error
        case nil:
            if let flight = flights[key], flight.number == number, flight.waiters.isEmpty { keepOrCancel(key) }
            throw .cancelled
        }
    }

    /// Starts fetching `key`; returns the flight's number.
    private func start(_ key: Key, _ fetch: @escaping @Sendable () async throws(APIError) -> FetchedVariant) -> Int {
        counter += 1
        let number = counter, disk = disk
        let task = Task {
            let result: Result<FetchedVariant, APIError>
            do throws(APIError) {
                let fetched = try await fetch()
                // A disk that is full or read-only costs the cache, not the picture.
                try? disk?.store(photoID: key.photoID, variant: key.variant, etag: fetched.etag, bytes: fetched.bytes)
                result = .success(fetched)
            } catch {
                result = .failure(error)
            }
            self.land(key, number: number, result)
        }
        flights[key] = Flight(number: number, task: task)
        return number
    }

    /// A waiter's task was cancelled: it stops waiting.
    private func leave(_ key: Key, waiter: Int) {
        flights[key]?.waiters.removeValue(forKey: waiter)?.resume(returning: nil)
    }

    /// The fetch for `key` has no one waiting: it finishes into the disk cache when the bound allows,
    /// else it is cancelled.
    private func keepOrCancel(_ key: Key) {
        // The flight counts itself among the detached.
        guard disk == nil || detachedCount > detachedLimit else { return }
        flights.removeValue(forKey: key)?.task.cancel()
    }

    private func land(_ key: Key, number: Int, _ result: Result<FetchedVariant, APIError>) {
        guard let flight = flights[key], flight.number == number else { return }
        flights[key] = nil
        for continuation in flight.waiters.values { continuation.resume(returning: result) }
    }
}
