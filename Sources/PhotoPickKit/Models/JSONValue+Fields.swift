import Foundation

/// A field of a JSON object that is missing or of the wrong type.
struct FieldProblem: Error {
    /// The member's name; nil when the object itself is wrong.
    let field: String?
    let reason: String
}

extension JSONValue {
    /// An integer that fits `Int`.
    var intValue: Int? { integerValue.flatMap { Int(exactly: $0) } }

    /// Any number.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .number(let value): value
        default: nil
        }
    }

    var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }
}

extension Array {
    /// The mapped elements, or nil if any element does not map.
    func compactMapAll<Mapped>(_ transform: (Element) -> Mapped?) -> [Mapped]? {
        var result: [Mapped] = []
        result.reserveCapacity(count)
        for element in self {
            guard let mapped = transform(element) else { return nil }
            result.append(mapped)
        }
        return result
    }
}

/// An object's members in order: mapping a photo by linear search beats hashing fifteen keys.
struct JSONMembers {
    private var members: [(key: String, value: JSONValue)] = []

    init() {}

    init(_ dictionary: [String: JSONValue]) {
        members = dictionary.map { ($0.key, $0.value) }
    }

    mutating func append(_ key: String, _ value: JSONValue) {
        members.append((key, value))
    }

    /// The last member of that name (a repeated name: the last one wins, as in a dictionary); all go.
    mutating func removeValue(forKey key: String) -> JSONValue? {
        guard let index = members.lastIndex(where: { $0.key == key }) else { return nil }
        let value = members[index].value
        members.removeAll { $0.key == key }
        return value
    }

    /// What was not taken.
    var remaining: [String: JSONValue] {
        Dictionary(members, uniquingKeysWith: { _, last in last })
    }
}

extension JSONMembers {
    /// Removes and returns a documented member, which must be there and convert.
    mutating func take<Field>(_ key: String, as kind: String, _ convert: (JSONValue) -> Field?) throws(FieldProblem) -> Field {
        guard let value = removeValue(forKey: key) else { throw FieldProblem(field: key, reason: "missing required field") }
        guard let converted = convert(value) else { throw FieldProblem(field: key, reason: "expected \(kind), found \(value)") }
        return converted
    }

    /// Removes and returns a documented date that may be null (or, tolerantly, absent).
    mutating func takeDate(_ key: String) throws(FieldProblem) -> Date? {
        guard let value = removeValue(forKey: key), value != .null else { return nil }
        guard let text = value.stringValue, let date = ISO8601.date(from: text) else {
            throw FieldProblem(field: key, reason: "expected an ISO 8601 date-time or null, found \(value)")
        }
        return date
    }

    /// Removes an optional member: null and absent are nil; a value of another shape is kept in `extra`.
    mutating func takeLeniently<Field>(
        _ key: String, into extra: inout [String: JSONValue], _ convert: (JSONValue) -> Field?
    ) -> Field? {
        guard let value = removeValue(forKey: key), value != .null else { return nil }
        guard let converted = convert(value) else {
            extra[key] = value
            return nil
        }
        return converted
    }
}
