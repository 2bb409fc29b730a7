/// One page of a listing and where the next one starts.
public struct Page<Item: Sendable & Decodable>: Sendable, Decodable {
    public let data: [Item]
    public let pagination: Pagination

    /// Whether another page follows: the API says so *and* gave a cursor for it.
    public var hasNextPage: Bool { pagination.hasMore && pagination.nextCursor != nil }

}

/// Where a listing's next page starts, and whether there is one.
public struct Pagination: Sendable, Hashable, Decodable {
    public let nextCursor: String?
    public let hasMore: Bool

    public init(nextCursor: String?, hasMore: Bool) {
        self.nextCursor = nextCursor
        self.hasMore = hasMore
    }
}

/// A photo's tags (`GET /photos/{id}/tags`); the shape is undocumented, so a bare array is accepted too.
public struct PhotoTags: Sendable, Decodable {
    public let tags: [Tag]

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
    public let tagIds: [Int]
}
