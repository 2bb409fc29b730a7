import Foundation
import PhotoPickKit

/// Any JSON value, for asserting on responses without a model for each: Kit's `JSONValue`, with lookups
/// that answer null instead of failing.
public struct JSON: Decodable, Equatable, Sendable {
    /// The value as Kit decoded it.
    public let value: JSONValue

    /// A JSON null, as a missing member or element reads.
    public static let null = JSON(.null)

    /// Wraps a value.
    public init(_ value: JSONValue) { self.value = value }

    /// Reads any JSON value.
    public init(from decoder: any Decoder) throws { value = try JSONValue(from: decoder) }

    /// Parses a body; nil when it is not JSON. Read with `JSONSerialization`, which tells the types
    /// apart without throwing: a decoder guessing each member's type throws for most of them, and Swift
    /// Testing records a backtrace for every throw (a 10,000-photo walk spent three quarters of its
    /// time there).
    public init?(parsing body: [UInt8]) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body), options: .fragmentsAllowed) else { return nil }
        value = Self.value(of: object)
    }

    private static func value(of object: Any) -> JSONValue {
        switch object {
        case let string as String: return .string(string)
        case let number as NSNumber:
            switch String(cString: number.objCType) {
            case "c", "B": return .bool(number.boolValue)
            case "d", "f": return .number(number.doubleValue)
            default: return .integer(number.int64Value)
            }
        case let array as [Any]: return .array(array.map(value(of:)))
        case let object as [String: Any]: return .object(object.mapValues(value(of:)))
        default: return .null
        }
    }

    /// An object's member; null when missing or not an object.
    public subscript(key: String) -> JSON { JSON(value[key] ?? .null) }

    /// An array's element; null when out of range or not an array.
    public subscript(index: Int) -> JSON {
        if case .array(let array) = value, array.indices.contains(index) { return JSON(array[index]) }
        return .null
    }

    /// The string, if this is one.
    public var string: String? { value.stringValue }
    /// The number as a whole integer, if it is one.
    public var int: Int? {
        switch value {
        case .integer(let integer): Int(exactly: integer)
        case .number(let number): Int(exactly: number)
        default: nil
        }
    }
    /// The boolean, if this is one.
    public var bool: Bool? { if case .bool(let flag) = value { flag } else { nil } }
    /// The elements; empty when this is not an array.
    public var array: [JSON] { if case .array(let elements) = value { elements.map(JSON.init) } else { [] } }
    /// Whether this is null (or missing).
    public var isNull: Bool { value == .null }
    /// Whether an object has the key at all, even with a null value.
    public func has(_ key: String) -> Bool { value[key] != nil }
}
