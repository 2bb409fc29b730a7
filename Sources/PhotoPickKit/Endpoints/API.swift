/// The PhotoPick API v1 endpoints, as typed requests: `client.send(API.photos(limit: 100))`.
public enum API {
    /// The largest page size the contract allows.
    public static let maximumPageSize = 100

    static func pageQuery(limit: Int?, cursor: String?) -> [(name: String, value: String)] {
        var query: [(name: String, value: String)] = []
        if let limit { query.append(("limit", String(limit))) }
        if let cursor { query.append(("cursor", cursor)) }
        return query
    }
}
