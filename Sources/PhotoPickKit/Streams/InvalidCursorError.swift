/// The server refused a listing's cursor (`invalid_cursor`): restart without one and skip what you have.
public struct InvalidCursorError: UserFacingError, Sendable {
    /// Items already delivered before the refusal.
    public let deliveredCount: Int
    /// The id of the last item delivered, to skip up to when the listing is in id order.
    public let lastDeliveredID: Int?
    /// The refusal itself.
    public let underlying: APIError

    /// One line that says the listing restarts and what it skips.
    public var userMessage: String {
        "The listing position expired after \(deliveredCount) items; restarting from the beginning skips what is already loaded."
    }
}
