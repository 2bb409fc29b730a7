/// A permission a key carries; scopes are independent, none implies another.
public enum Scope: String, CaseIterable, Comparable, Sendable {
    case customerRead = "customer:read"
    case photosRead = "photos:read"
    case photosWrite = "photos:write"
    case photosDelete = "photos:delete"
    case tagsRead = "tags:read"
    case tagsWrite = "tags:write"

    /// Orders scopes by name.
    public static func < (lhs: Scope, rhs: Scope) -> Bool { lhs.rawValue < rhs.rawValue }
}
