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
        private let prefetch = Prefetch<Fetched>()
        private let decodePage = Item.pageRequest(limit: 1, cursor: nil).decode
        private var cursor: String?
        private var isFinished = false
        private var deliveredCount = 0
        private var lastDeliveredID: Int?

        init(client: APIClient, pageSize: Int, cursor: String?) {
            self.client = client
            self.pageSize = pageSize
            self.cursor = cursor
        }

        /// The next page, or nil after the last; the page after it is fetched meanwhile.
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
                let fetched = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
                // The next page is asked for as soon as its cursor is known, before this one is decoded, so
                // decoding (and whatever the consumer does) overlaps the next round trip.
                if fetched.pagination.hasMore, let next = fetched.pagination.nextCursor {
                    cursor = next
                    prefetch.store(fetch(next))
                } else {
                    isFinished = true
                }
                page = try decodePage(fetched.response)
                if page.pagination != fetched.pagination {
                    // The quick read was wrong (a server writing keys in an odd way): follow the real cursor.
                    prefetch.take()?.cancel()
                    isFinished = !page.hasNextPage
                    cursor = page.pagination.nextCursor
                    if !isFinished { prefetch.store(fetch(cursor)) }
                }
            } catch {
                isFinished = true
                prefetch.take()?.cancel()
                throw translate(error)
            }
            deliveredCount += page.data.count
            lastDeliveredID = page.data.last?.id ?? lastDeliveredID
            return page
        }

        /// One page's answer, undecoded except for where the next page starts.
        struct Fetched: Sendable {
            let response: RawResponse
            let pagination: Pagination
        }

        private func fetch(_ cursor: String?) -> Task<Fetched, any Error> {
            let client = client
            let request = Item.pageRequest(limit: pageSize, cursor: cursor)
            return Task {
                let response = try await client.perform(request)
                let pagination = try PaginationScanner.pagination(in: response.body)
                    ?? response.decodeJSON(PaginationOnly.self).pagination
                return Fetched(response: response, pagination: pagination)
            }
        }

        private func translate(_ error: any Error) -> any Error {
            guard let error = error as? APIError else { return APIError.cancelled }
            guard error.code == .invalidCursor, cursor != nil else { return error }
            return InvalidCursorError(deliveredCount: deliveredCount, lastDeliveredID: lastDeliveredID, underlying: error)
        }
    }
}

/// The `pagination` member alone, read before the page's items are decoded.
struct PaginationOnly: Decodable {
    let pagination: Pagination
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

    func store(_ task: Task<Value, any Error>) {
        slot.withLockedValue { $0 = task }
    }

    deinit {
        slot.withLockedValue { $0?.cancel() }
    }
}
