/// The account that owns the library (`GET /customer`); its fields are undocumented, so all are optional.
public struct Customer: Sendable, Hashable, Decodable {
    /// The customer's id, when the server sends one.
    public var id: Int?
    /// The customer's name, when the server sends one.
    public var name: String?
    /// The customer's plan, when the server sends one.
    public var tariff: String?
    /// Every other field, raw.
    public var extra: [String: JSONValue]

    /// Reads any object; a known field of an unexpected type is kept raw in `extra` instead of failing.
    public init(from decoder: any Decoder) throws {
        guard case .object(let object) = try JSONValue(from: decoder) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "expected a customer object"))
        }
        var members = JSONMembers(object)
        var extra: [String: JSONValue] = [:]
        id = members.takeLeniently("id", into: &extra, \.intValue)
        name = members.takeLeniently("name", into: &extra, \.stringValue)
        tariff = members.takeLeniently("tariff", into: &extra, \.stringValue)
        self.extra = extra.merging(members.remaining) { kept, _ in kept }
    }
}
