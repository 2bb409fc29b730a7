/// The key in use and its customer, scopes and rate-limit budget (`GET /me`).
public struct Me: Sendable, Hashable, Decodable {
    /// The id of the key in use.
    public let apiKeyId: Int
    /// The id of its customer.
    public let customerId: Int
    /// The key's name.
    public let name: String
    /// What the key may do.
    public let scopes: [Scope]
    /// The budget right now.
    public let rateLimit: RateLimit

    /// The budget as `/me` reports it; `reset` is in Unix seconds.
    public struct RateLimit: Sendable, Hashable, Decodable {
        /// Requests per window.
        public let limit: Int
        /// Requests left in this window.
        public let remaining: Int
        /// When the window resets, in Unix seconds.
        public let reset: Int
    }
}

/// A permission a key holds, such as `photos:write`; scopes this code does not know are kept.
public struct Scope: RawRepresentable, Sendable, Hashable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    public var description: String { rawValue }

    public static let customerRead: Scope = "customer:read"
    public static let photosRead: Scope = "photos:read"
    public static let photosWrite: Scope = "photos:write"
    public static let photosDelete: Scope = "photos:delete"
    public static let tagsRead: Scope = "tags:read"
    public static let tagsWrite: Scope = "tags:write"
}
