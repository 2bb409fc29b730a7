/// Something listed page by page, with an integer id.
public protocol PagedItem: Sendable, Decodable, Identifiable where ID == Int {
    /// The request for one page of these.
    static func pageRequest(limit: Int, cursor: String?) -> Request<Page<Self>>
}

extension Photo: PagedItem {
    /// `GET /photos`, decoded by `PhotoPageDecoder`: a library walk's hot path skips Foundation's decoder.
    public static func pageRequest(limit: Int, cursor: String?) -> Request<Page<Photo>> {
        let request = API.photos(limit: limit, cursor: cursor)
        return Request(request.method, request.path, query: request.query, decode: PhotoPageDecoder.decode)
    }
}

extension Tag: PagedItem {
    public static func pageRequest(limit: Int, cursor: String?) -> Request<Page<Tag>> {
        API.tags(limit: limit, cursor: cursor)
    }
}
