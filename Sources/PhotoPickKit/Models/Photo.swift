import Foundation

/// A photo's metadata: the documented fields, the ones our server adds when present, and everything else raw.
public struct Photo: Sendable, Hashable, Identifiable {
    public let id: Int
    public var filename: String
    /// Size of the original in bytes.
    public var bytes: Int64
    /// When it was taken; nil when unknown.
    public var takenAt: Date?
    public var tagIDs: [Int]
    public var width: Int?
    public var height: Int?
    public var mimeType: String?
    public var createdAt: Date?
    public var camera: Camera?
    public var lens: String?
    public var exposure: Exposure?
    public var location: Location?
    public var title: String?
    public var description: String?
    /// Fields this code does not model, as the server sent them, so they can be shown as raw metadata.
    public var extra: [String: JSONValue]

    /// A photo with only the documented fields; the rest start empty.
    public init(id: Int, filename: String, bytes: Int64, takenAt: Date?, tagIDs: [Int]) {
        self.id = id
        self.filename = filename
        self.bytes = bytes
        self.takenAt = takenAt
        self.tagIDs = tagIDs
        self.extra = [:]
    }

    /// The body that made it.
    public struct Camera: Sendable, Hashable, Codable {
        public var make: String?
        public var model: String?
    }

    /// How it was exposed; each part is optional.
    public struct Exposure: Sendable, Hashable, Codable {
        public var iso: Int?
        public var fNumber: Double?
        /// As the server writes it, such as "1/250".
        public var exposureTime: String?
        /// In millimetres.
        public var focalLength: Double?
    }

    /// Where it was taken.
    public struct Location: Sendable, Hashable, Codable {
        public var latitude: Double
        public var longitude: Double
    }
}

extension Photo: Decodable {
    static let knownFields: Set<String> = [
        "id", "filename", "bytes", "takenAt", "tagIds", "width", "height", "mimeType", "createdAt", "camera", "lens",
        "exposure", "location", "title", "description",
    ]

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        id = try container.decode(Int.self, forKey: AnyCodingKey("id"))
        filename = try container.decode(String.self, forKey: AnyCodingKey("filename"))
        bytes = try container.decode(Int64.self, forKey: AnyCodingKey("bytes"))
        tagIDs = try container.decode([Int].self, forKey: AnyCodingKey("tagIds"))
        var extra = container.unknownMembers(excluding: Self.knownFields)
        takenAt = try Self.date(in: container, "takenAt", required: true)
        createdAt = try? Self.date(in: container, "createdAt", required: false)
        width = container.lenient(Int.self, "width", extra: &extra)
        height = container.lenient(Int.self, "height", extra: &extra)
        mimeType = container.lenient(String.self, "mimeType", extra: &extra)
        camera = container.lenient(Camera.self, "camera", extra: &extra)
        lens = container.lenient(String.self, "lens", extra: &extra)
        exposure = container.lenient(Exposure.self, "exposure", extra: &extra)
        location = container.lenient(Location.self, "location", extra: &extra)
        title = container.lenient(String.self, "title", extra: &extra)
        description = container.lenient(String.self, "description", extra: &extra)
        self.extra = extra
    }

    /// A documented date must be null or parse; an extra one that does not parse is simply absent.
    private static func date(in container: KeyedDecodingContainer<AnyCodingKey>, _ key: String, required: Bool) throws -> Date? {
        let codingKey = AnyCodingKey(key)
        guard let text = try container.decodeIfPresent(String.self, forKey: codingKey) else { return nil }
        guard let date = ISO8601.date(from: text) else {
            guard required else { return nil }
            throw DecodingError.dataCorruptedError(
                forKey: codingKey, in: container, debugDescription: "not an ISO 8601 date-time: \(text)"
            )
        }
        return date
    }
}
