/// A tag: a name, unique per customer, and an optional `#rrggbb` colour.
public struct Tag: Sendable, Hashable, Identifiable, Decodable {
    /// The tag's id.
    public let id: Int
    /// Its name, unique per customer.
    public var name: String
    /// Such as `#e94b60`; nil for none.
    public var color: String?

    /// A tag with these values.
    public init(id: Int, name: String, color: String?) {
        self.id = id
        self.name = name
        self.color = color
    }
}
