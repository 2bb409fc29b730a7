/// A coding key made from any string, for walking an object's members one by one.
struct AnyCodingKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

extension KeyedDecodingContainer where Key == AnyCodingKey {
    /// Decodes an optional member leniently: a value of the wrong type is kept in `extra` instead of failing.
    func lenient<Value: Decodable>(_ type: Value.Type, _ key: String, extra: inout [String: JSONValue]) -> Value? {
        let codingKey = AnyCodingKey(key)
        guard contains(codingKey) else { return nil }
        if let value = try? decodeIfPresent(Value.self, forKey: codingKey) { return value }
        extra[key] = try? decode(JSONValue.self, forKey: codingKey)
        return nil
    }

    /// Every member whose name is not in `known`, as raw JSON.
    func unknownMembers(excluding known: Set<String>) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        for key in allKeys where !known.contains(key.stringValue) {
            members[key.stringValue] = try? decode(JSONValue.self, forKey: key)
        }
        return members
    }
}
