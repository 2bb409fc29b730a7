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
    public init(from decoder: any Decoder) throws {
        let json = try JSONValue(from: decoder)
        do {
            try self.init(json: json)
        } catch {
            let path = decoder.codingPath + (error.field.map { [AnyCodingKey($0)] } ?? [])
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: path, debugDescription: error.reason))
        }
    }

    /// Maps one photo object: documented fields must be there with their types; ours are taken when
    /// they have the expected shape and kept raw in `extra` otherwise, with every unknown field.
    init(json: JSONValue) throws(FieldProblem) {
        guard case .object(var members) = json else { throw FieldProblem(field: nil, reason: "expected a photo object") }
        id = try members.take("id", as: "an integer", \.intValue)
        filename = try members.take("filename", as: "a string", \.stringValue)
        bytes = try members.take("bytes", as: "an integer", \.integerValue)
        tagIDs = try members.take("tagIds", as: "an array of integers") { $0.arrayValue?.compactMapAll(\.intValue) }
        takenAt = try members.takeDate("takenAt")
        var extra: [String: JSONValue] = [:]
        createdAt = members.takeLeniently("createdAt", into: &extra) { $0.stringValue.flatMap(ISO8601.date(from:)) }
        width = members.takeLeniently("width", into: &extra, \.intValue)
        height = members.takeLeniently("height", into: &extra, \.intValue)
        mimeType = members.takeLeniently("mimeType", into: &extra, \.stringValue)
        camera = members.takeLeniently("camera", into: &extra, Camera.init(json:))
        lens = members.takeLeniently("lens", into: &extra, \.stringValue)
        exposure = members.takeLeniently("exposure", into: &extra, Exposure.init(json:))
        location = members.takeLeniently("location", into: &extra, Location.init(json:))
        title = members.takeLeniently("title", into: &extra, \.stringValue)
        description = members.takeLeniently("description", into: &extra, \.stringValue)
        self.extra = extra.merging(members) { kept, _ in kept }
    }
}

extension Photo.Camera {
    init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        make = members["make"]?.stringValue
        model = members["model"]?.stringValue
    }
}

extension Photo.Exposure {
    init?(json: JSONValue) {
        guard case .object(let members) = json else { return nil }
        iso = members["iso"]?.intValue
        fNumber = members["fNumber"]?.doubleValue
        exposureTime = members["exposureTime"]?.stringValue
        focalLength = members["focalLength"]?.doubleValue
    }
}

extension Photo.Location {
    init?(json: JSONValue) {
        guard let latitude = json["latitude"]?.doubleValue, let longitude = json["longitude"]?.doubleValue else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }
}
