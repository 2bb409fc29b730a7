import NIOConcurrencyHelpers

/// Every page of a listing, fetched as you iterate, with the next page in flight while you use this one.
///
/// Nothing is requested until iteration starts, and at most one page is fetched ahead, so a slow
/// consumer costs no memory and a fast one rarely waits. Cancelling the iterating task stops it.
public struct PageStream<Item: PagedItem>: AsyncSequence, Sendable {
    /// Each element is one whole page.
    public typealias Element = Page<Item>

    let client: APIClient
    let pageSize: Int
    let startCursor: String?

    /// Pages of `pageSize` items (at most 100, the contract's maximum), from the start or from `cursor`,
    /// a `nextCursor` an earlier walk stopped at.
    public init(client: APIClient, pageSize: Int = API.maximumPageSize, startingAt cursor: String? = nil) {
        self.client = client
        self.pageSize = Swift.min(Swift.max(pageSize, 1), API.maximumPageSize)
        startCursor = cursor
    }

    /// Starts a walk; the first page is asked for on the first `next()`.
    public func makeAsyncIterator() -> Iterator {
        Iterator(client: client, pageSize: pageSize, cursor: startCursor)
    }

    /// Walks the pages; throws `APIError`, or `InvalidCursorError` when the server refuses a cursor.
    public struct Iterator: AsyncIteratorProtocol {
        private let client: APIClient
        private let pageSize: Int
        private let prefetch = Prefetch<Page<Item>>()
        private var cursor: String?
        private var isFinished = false
        private var deliveredCount = 0
        private var lastDeliveredID: Int?

        init(client: APIClient, pageSize: Int, cursor: String?) {
            self.client = client
            self.pageSize = pageSize
            self.cursor = cursor
        }

        /// The next page, or nil after the last; the page after it is fetched and decoded meanwhile.
        public mutating func next() async throws -> Page<Item>? {
            guard !isFinished else { return nil }
            guard !Task.isCancelled else {
                // A cancelled walk fails rather than ending quietly, so nobody mistakes part of a list for all of it.
                isFinished = true
                prefetch.take()?.cancel()
                throw APIError.cancelled
            }
            let task = prefetch.take() ?? fetch(cursor)
            let page: Page<Item>
            do {
                page = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            } catch {
                isFinished = true
                throw translate(error)
            }
            // The next page is asked for at once, so whatever the consumer does with this one overlaps
            // the next round trip and its decoding.
            if page.hasNextPage, let next = page.pagination.nextCursor {
                cursor = next
                prefetch.store(fetch(next))
            } else {
                isFinished = true
            }
            deliveredCount += page.data.count
            lastDeliveredID = page.data.last?.id ?? lastDeliveredID
            return page
        }

        /// Returns once the page fetched ahead (if any) has been answered, without taking it: for tests,
        /// which then know every request the walk has made so far.
        package func fetchAheadAnswered() async {
            _ = await prefetch.peek()?.result
        }

        private func fetch(_ cursor: String?) -> Task<Page<Item>, any Error> {
            let client = client
            let request = Item.pageRequest(limit: pageSize, cursor: cursor)
            return Task { try await client.send(request) }
        }

        private func translate(_ error: any Error) -> any Error {
            guard let error = error as? APIError else { return APIError.cancelled }
            guard error.code == .invalidCursor, cursor != nil else { return error }
            return InvalidCursorError(deliveredCount: deliveredCount, lastDeliveredID: lastDeliveredID, underlying: error)
        }
    }
}

/// Holds the one page fetched ahead, and cancels it if the iterator is dropped before using it.
final class Prefetch<Value: Sendable>: Sendable {
    private let slot = NIOLockedValueBox<Task<Value, any Error>?>(nil)

    func take() -> Task<Value, any Error>? {
        slot.withLockedValue { task in
            defer { task = nil }
            return task
        }
    }

    func peek() -> Task<Value, any Error>? {
        slot.withLockedValue { $0 }
    }

    func store(_ task: Task<Value, any Error>) {
        slot.withLockedValue { $0 = task }
    }

    deinit {
        slot.withLockedValue { $0?.cancel() }
    }
}
