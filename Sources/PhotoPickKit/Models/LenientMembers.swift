import Foundation
import PhotoPickFormats

/// An object's members read by name, strictly for documented fields and leniently for the rest: a
/// lenient field of another shape is kept raw instead of failing the whole object, and whatever was
/// not read is kept raw too.
struct LenientMembers {
    private let container: KeyedDecodingContainer<AnyCodingKey>
    private let codingPath: [any CodingKey]
    /// The members read so far.
    private var taken: Set<String> = []
    /// Lenient fields that had another shape, raw.
    private var extra: [String: JSONValue] = [:]

    init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: AnyCodingKey.self)
        codingPath = decoder.codingPath
    }

    /// A field that must be there with this type.
    mutating func required<Value: Decodable>(_ key: String) throws -> Value {
        taken.insert(key)
        return try container.decode(Value.self, forKey: AnyCodingKey(key))
    }

    /// A date-time that may be null or absent; any other value is an error naming the field.
    mutating func date(_ key: String) throws -> Date? {
        taken.insert(key)
        guard let text = try container.decodeIfPresent(String.self, forKey: AnyCodingKey(key)) else { return nil }
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [AnyCodingKey(key)], debugDescription: "expected an ISO 8601 date-time or null, found \"\(text)\""
            ))
        }
        return date
    }

    /// An optional field: null and absent are nil; a value of another shape is kept raw.
    mutating func lenient<Value: Decodable>(_ key: String) throws -> Value? {
        taken.insert(key)
        let codingKey = AnyCodingKey(key)
        do {
            // One look-up in the usual case; only a value of another shape pays for a second.
            return try container.decodeIfPresent(Value.self, forKey: codingKey)
        } catch {
            extra[key] = try container.decode(JSONValue.self, forKey: codingKey)
            return nil
        }
    }

    /// An optional date-time: null and absent are nil; anything that is not one is kept raw.
    mutating func lenientDate(_ key: String) throws -> Date? {
        guard let text: String = try lenient(key) else { return nil }
        guard let date = ISO8601.date(from: text) else {
            extra[key] = .string(text)
            return nil
        }
        return date
    }

    /// The lenient fields kept raw, and every member not read.
    func rest() throws -> [String: JSONValue] {
        var rest = extra
        for key in container.allKeys where !taken.contains(key.stringValue) {
            rest[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return rest
    }
}
