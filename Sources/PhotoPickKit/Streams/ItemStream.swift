/// Every photo in the library, fetched page by page as you iterate.
public typealias PhotoStream = ItemStream<Photo>

/// Every tag, fetched page by page as you iterate.
public typealias TagStream = ItemStream<Tag>

/// Every item of a listing, one at a time, over a `PageStream`; memory stays at two pages whatever the size.
public struct ItemStream<Item: PagedItem>: AsyncSequence, Sendable {
    /// Each element is one item.
    public typealias Element = Item

    /// The pages underneath, for callers that want them whole.
    public let pages: PageStream<Item>

    /// Every item, fetched in pages of `pageSize` (at most 100).
    public init(client: APIClient, pageSize: Int = API.maximumPageSize) {
        pages = PageStream(client: client, pageSize: pageSize)
    }

    /// Starts a walk from the first page.
    public func makeAsyncIterator() -> Iterator {
        Iterator(pages: pages.makeAsyncIterator())
    }

    /// Yields the items of each page in order.
    public struct Iterator: AsyncIteratorProtocol {
        private var pages: PageStream<Item>.Iterator
        private var items: [Item] = []
        private var index = 0

        init(pages: PageStream<Item>.Iterator) {
            self.pages = pages
        }

        /// Returns once the page fetched ahead (if any) has been answered: for tests.
        package func fetchAheadAnswered() async {
            await pages.fetchAheadAnswered()
        }

        /// The next item, or nil after the last; throws what the page stream throws.
        public mutating func next() async throws -> Item? {
            while index == items.count {
                guard let page = try await pages.next() else { return nil }
                items = page.data
                index = 0
            }
            defer { index += 1 }
            return items[index]
        }
    }
}
