extension API {
    /// `GET /tags`: one page of tags; omit the cursor for the first.
    public static func tags(limit: Int? = nil, cursor: String? = nil) -> Request<Page<Tag>> {
        Request(.get, "/tags", query: pageQuery(limit: limit, cursor: cursor))
    }

    /// `GET /tags/{id}`.
    public static func tag(id: Int) -> Request<Tag> {
        Request(.get, "/tags/\(id)")
    }

    /// `POST /tags`. Not retried after an ambiguous failure; `APIClient.createTag` resolves those safely.
    public static func createTag(name: String, color: String? = nil) -> Request<Tag> {
        Request(.post, "/tags", body: NewTag(name: name, color: color))
    }

    /// `PATCH /tags/{id}`: changes only what `update` sets.
    public static func updateTag(id: Int, _ update: TagUpdate) -> Request<Tag> {
        Request(.patch, "/tags/\(id)", body: update)
    }

    /// `DELETE /tags/{id}`: the tag also leaves every photo.
    public static func deleteTag(id: Int) -> Request<Void> {
        Request(.delete, "/tags/\(id)")
    }
}
