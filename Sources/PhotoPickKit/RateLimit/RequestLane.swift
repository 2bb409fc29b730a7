/// What a request is for. The pacer spends the budget on the lanes in this order, first come first
/// served within one, and keeps a share of each window that the two lowest lanes never spend.
///
/// A caller says which lane its requests go in by running them inside
/// `RequestLane.$current.withValue(.listing) { … }`; tasks it starts inherit the lane. Requests that
/// say nothing are the user's own.
public enum RequestLane: Int, Sendable, Hashable, Comparable, CaseIterable, CustomStringConvertible {
    /// What the user just asked for: a tag write or create, the photo under the cursor, details, an edit.
    case user
    /// What is on screen besides: the side pane, grid tiles in view.
    case visible
    /// Downloads in the queue.
    case download
    /// Walking the library's pages: the first listing and every refresh.
    case listing
    /// Previews the user may want next.
    case prefetch

    /// The lane of requests made by the current task.
    @TaskLocal public static var current: RequestLane = .user

    /// Whether the lane may spend the share of the window kept for the user.
    public var mayUseReserve: Bool { self < .listing }

    /// Whether `left` is served before `right`.
    public static func < (left: RequestLane, right: RequestLane) -> Bool { left.rawValue < right.rawValue }

    /// The lane's name in the header and the log, such as "listing".
    public var description: String {
        switch self {
        case .user: "your requests"
        case .visible: "what is on screen"
        case .download: "downloads"
        case .listing: "listing"
        case .prefetch: "prefetch"
        }
    }
}
