import Foundation

extension Photo: Decodable {
    /// The members this type models; the rest go to `extra`.
    private static let modelled: Set<String> = [
        "id", "filename", "bytes", "tagIds", "takenAt", "createdAt", "width", "height", "mimeType", "camera", "lens",
        "exposure", "location", "title", "description",
    ]

    /// Reads a photo object: documented fields must be there with their types, and an error names the
    /// field; ours are taken when they have the expected shape and kept raw in `extra` otherwise, with
    /// every unknown field.
    public init(from decoder: any Decoder) throws {
        var members = try LenientMembers(decoder)
        id = try members.required("id")
        filename = try members.required("filename")
        bytes = try members.required("bytes")
        tagIDs = try members.required("tagIds")
        takenAt = try members.date("takenAt")
        createdAt = try members.lenient("createdAt", as: String.self).flatMap { text in
            ISO8601.date(from: text) ?? members.keepRaw("createdAt")
        }
        width = try members.lenient("width")
        height = try members.lenient("height")
        mimeType = try members.lenient("mimeType")
        camera = try members.lenient("camera")
        lens = try members.lenient("lens")
        exposure = try members.lenient("exposure")
        location = try members.lenient("location")
        title = try members.lenient("title")
        description = try members.lenient("description")
        extra = try members.rest(besides: Self.modelled)
    }
}

/// An object's members read by name, strictly for documented fields and leniently for the rest: a
/// lenient field of another shape is kept raw instead of failing the whole object.
struct LenientMembers {
    private let container: KeyedDecodingContainer<AnyCodingKey>
    private let codingPath: [any CodingKey]
    /// Lenient fields that had another shape, raw.
    private var extra: [String: JSONValue] = [:]

    init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: AnyCodingKey.self)
        codingPath = decoder.codingPath
    }

    /// A field that must be there with this type.
    func required<Value: Decodable>(_ key: String) throws -> Value {
        try container.decode(Value.self, forKey: AnyCodingKey(key))
    }

    /// A date-time that may be null or absent; any other value is an error naming the field.
    func date(_ key: String) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: AnyCodingKey(key)) else { return nil }
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath + [AnyCodingKey(key)], debugDescription: "expected an ISO 8601 date-time or null, found \"\(text)\""
            ))
        }
        return date
    }

    /// An optional field: null and absent are nil; a value of another shape is kept raw.
    mutating func lenient<Value: Decodable>(_ key: String, as type: Value.Type = Value.self) throws -> Value? {
        let codingKey = AnyCodingKey(key)
        do {
            // One look-up in the usual case; only a value of another shape pays for a second.
            return try container.decodeIfPresent(Value.self, forKey: codingKey)
        } catch {
            extra[key] = try container.decode(JSONValue.self, forKey: codingKey)
            return nil
        }
    }

    /// Keeps a field raw after all, when its value passed the type but not a later check; returns nil.
    mutating func keepRaw<Value>(_ key: String) -> Value? {
        extra[key] = try? container.decode(JSONValue.self, forKey: AnyCodingKey(key))
        return nil
    }

    /// The lenient fields kept raw, and every member not in `modelled`.
    func rest(besides modelled: Set<String>) throws -> [String: JSONValue] {
        var rest = extra
        for key in container.allKeys where !modelled.contains(key.stringValue) {
            rest[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
        }
        return rest
    }
}
