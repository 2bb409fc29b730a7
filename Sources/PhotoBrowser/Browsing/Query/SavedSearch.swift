/// A query kept in the config under a name: `[searches] keepers = "rating>=3 -reject"`.
public struct SavedSearch: Sendable, Equatable {
    /// The name in the config.
    public let name: String
    /// The query, as typed after `/`.
    public let query: String

    /// A search named `name`.
    package init(name: String, query: String) {
        self.name = name
        self.query = query
    }
}
