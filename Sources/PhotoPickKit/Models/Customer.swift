/// The account that owns the library (`GET /customer`); its fields are undocumented, so all are optional.
public struct Customer: Sendable, Hashable, Decodable {
    public var id: Int?
    public var name: String?
    public var tariff: String?
    /// Every other field, raw.
    public var extra: [String: JSONValue]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        var extra = container.unknownMembers(excluding: ["id", "name", "tariff"])
        id = container.lenient(Int.self, "id", extra: &extra)
        name = container.lenient(String.self, "name", extra: &extra)
        tariff = container.lenient(String.self, "tariff", extra: &extra)
        self.extra = extra
    }
}
