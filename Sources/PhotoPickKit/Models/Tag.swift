/// A tag: a name, unique per customer, and an optional `#rrggbb` colour.
public struct Tag: Sendable, Hashable, Identifiable, Decodable {
    public let id: Int
    public var name: String
    public var color: String?

    public init(id: Int, name: String, color: String?) {
        self.id = id
        self.name = name
        self.color = color
    }
}
