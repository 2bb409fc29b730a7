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
    /// The scope as the server writes it, such as `photos:write`.
    public let rawValue: String

    /// A scope by its name, known or not.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A scope by its name, known or not.
    public init(stringLiteral value: String) { rawValue = value }
    /// Reads the scope's name from a JSON string.
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Writes the scope's name as a JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
    /// The scope's name, such as `photos:write`.
    public var description: String { rawValue }

    /// Read the key (`GET /me`) and the account (`GET /customer`).
    public static let customerRead: Scope = "customer:read"
    /// List and read photos, their tags and their files.
    public static let photosRead: Scope = "photos:read"
    /// Change photos and replace their tags.
    public static let photosWrite: Scope = "photos:write"
    /// Delete photos.
    public static let photosDelete: Scope = "photos:delete"
    /// List and read tags.
    public static let tagsRead: Scope = "tags:read"
    /// Create, change and delete tags.
    public static let tagsWrite: Scope = "tags:write"
}
