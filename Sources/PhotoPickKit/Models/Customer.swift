/// The account that owns the library (`GET /customer`); its fields are undocumented, so all are optional.
public struct Customer: Sendable, Hashable, Decodable {
    public var id: Int?
    public var name: String?
    public var tariff: String?
    /// Every other field, raw.
    public var extra: [String: JSONValue]

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
