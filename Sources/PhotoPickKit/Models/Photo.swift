import Foundation

/// A photo's metadata: the documented fields, the ones our server adds when present, and everything else raw.
public struct Photo: Sendable, Hashable, Identifiable {
    /// The photo's id.
    public let id: Int
    /// The name the photographer gave the file, unsanitised.
    public var filename: String
    /// Size of the original in bytes.
    public var bytes: Int64
    /// When it was taken; nil when unknown.
    public var takenAt: Date?
    /// The ids of its tags.
    public var tagIDs: [Int]
    /// Width in pixels.
    public var width: Int?
    /// Height in pixels.
    public var height: Int?
    /// Such as `image/jpeg`.
    public var mimeType: String?
    /// When it was added to the library.
    public var createdAt: Date?
    /// The body that took it.
    public var camera: Camera?
    /// The lens, as the server names it.
    public var lens: String?
    /// Exposure settings.
    public var exposure: Exposure?
    /// Where it was taken; nil when unknown.
    public var location: Location?
    /// A title, if one was given.
    public var title: String?
    /// A description, if one was given.
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
        /// The maker, such as `Fujifilm`.
        public var make: String?
        /// The model, such as `X-T5`.
        public var model: String?

        /// A camera from its maker and model, either unknown.
        public init(make: String?, model: String?) {
            self.make = make
            self.model = model
        }
    }

    /// How it was exposed; each part is optional.
    public struct Exposure: Sendable, Hashable, Codable {
        /// Sensitivity, such as 400.
        public var iso: Int?
        /// Aperture, such as 2.8.
        public var fNumber: Double?
        /// As the server writes it, such as "1/250".
        public var exposureTime: String?
        /// In millimetres.
        public var focalLength: Double?

        /// Exposure settings, any of them unknown.
        public init(iso: Int?, fNumber: Double?, exposureTime: String?, focalLength: Double?) {
            self.iso = iso
            self.fNumber = fNumber
            self.exposureTime = exposureTime
            self.focalLength = focalLength
        }
    }

    /// Where it was taken.
    public struct Location: Sendable, Hashable, Codable {
        /// Degrees north.
        public var latitude: Double
        /// Degrees east.
        public var longitude: Double

        /// A place in degrees north and east.
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
        }
    }
}
