extension API {
    /// `GET /customer`: the account that owns the library.
    public static func customer() -> Request<Customer> {
        Request(.get, "/customer")
    }
}
