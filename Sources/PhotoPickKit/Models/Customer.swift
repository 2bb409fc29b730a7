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
        var members = try LenientMembers(decoder)
        id = try members.lenient("id")
        name = try members.lenient("name")
        tariff = try members.lenient("tariff")
        extra = try members.rest()
    }
}
