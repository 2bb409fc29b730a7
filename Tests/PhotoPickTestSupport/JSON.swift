/// Any JSON value, for asserting on responses without a model for each.
public enum JSON: Decodable, Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSON])
    case object([String: JSON])

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSON].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSON].self))
        }
    }

    /// An object's member; null when missing or not an object.
    public subscript(key: String) -> JSON {
        if case .object(let object) = self { return object[key] ?? .null }
        return .null
    }

    /// An array's element; null when out of range or not an array.
    public subscript(index: Int) -> JSON {
        if case .array(let array) = self, array.indices.contains(index) { return array[index] }
        return .null
    }

    /// The string, if this is one.
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    /// The number as a whole integer, if it is one.
    public var int: Int? { if case .number(let value) = self { Int(exactly: value) } else { nil } }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    /// The elements; empty when this is not an array.
    public var array: [JSON] { if case .array(let value) = self { value } else { [] } }
    /// Whether this is null (or missing).
    public var isNull: Bool { self == .null }
    /// Whether an object has the key at all, even with a null value.
    public func has(_ key: String) -> Bool {
        if case .object(let object) = self { return object[key] != nil }
        return false
    }
}
