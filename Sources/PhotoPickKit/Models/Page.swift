/// One page of a listing and where the next one starts.
public struct Page<Item: Sendable & Decodable>: Sendable, Decodable {
    /// The items of this page, in listing order.
    public let data: [Item]
    /// Where the next page starts, and whether there is one.
    public let pagination: Pagination

    /// Whether another page follows: the API says so *and* gave a cursor for it.
    public var hasNextPage: Bool { pagination.hasMore && pagination.nextCursor != nil }

}

/// Where a listing's next page starts, and whether there is one.
public struct Pagination: Sendable, Hashable, Decodable {
    /// The cursor to pass for the next page; nil when there is none.
    public let nextCursor: String?
    /// Whether the server says more pages follow.
    public let hasMore: Bool

    /// Pagination as given.
    public init(nextCursor: String?, hasMore: Bool) {
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// A photo's tags (`GET /photos/{id}/tags`); the shape is undocumented, so a bare array is accepted too.
public struct PhotoTags: Sendable, Decodable {
    /// The photo's tags.
    public let tags: [Tag]

    /// Reads either a bare array of tags or an object with them under `data`.
    public init(from decoder: any Decoder) throws {
        if let tags = try? decoder.singleValueContainer().decode([Tag].self) {
            self.tags = tags
        } else {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            tags = try container.decode([Tag].self, forKey: AnyCodingKey("data"))
        }
    }
}

/// The tag ids a photo has after `PUT /photos/{id}/tags`.
public struct PhotoTagIDs: Sendable, Decodable {
    /// The ids of the photo's tags, as the server now holds them.
    public let tagIds: [Int]
}
