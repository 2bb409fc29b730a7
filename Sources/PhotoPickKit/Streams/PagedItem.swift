/// Something listed page by page, with an integer id.
public protocol PagedItem: Sendable, Decodable, Identifiable where ID == Int {
    /// The request for one page of these.
    static func pageRequest(limit: Int, cursor: String?) -> Request<Page<Self>>
}

extension Photo: PagedItem {
    /// A page of photos (`GET /photos`).
    public static func pageRequest(limit: Int, cursor: String?) -> Request<Page<Photo>> {
        API.photos(limit: limit, cursor: cursor)
    }
}

extension Tag: PagedItem {
    /// A page of tags (`GET /tags`).
    public static func pageRequest(limit: Int, cursor: String?) -> Request<Page<Tag>> {
        API.tags(limit: limit, cursor: cursor)
    }
}
