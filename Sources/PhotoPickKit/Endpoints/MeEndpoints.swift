extension API {
    /// `GET /me`: the key, its customer, scopes and budget.
    public static func me() -> Request<Me> {
        Request(.get, "/me")
    }
}
