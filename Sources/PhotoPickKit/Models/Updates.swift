import Foundation
import PhotoPickFormats

/// A change to a photo (`PATCH /photos/{id}`): nil leaves a field as it is; `.some(nil)` clears it.
public struct PhotoUpdate: Sendable, Encodable {
    /// The new filename; nil keeps it.
    public var filename: String?
    /// The new title; nil keeps it, `.some(nil)` clears it.
    public var title: String??
    /// The new description; nil keeps it, `.some(nil)` clears it.
    public var description: String??
    /// The new capture time; nil keeps it, `.some(nil)` clears it.
    public var takenAt: Date??

    /// A change to the given fields; the rest stay as they are.
    public init(filename: String? = nil, title: String?? = nil, description: String?? = nil, takenAt: Date?? = nil) {
        self.filename = filename
        self.title = title
        self.description = description
        self.takenAt = takenAt
    }

    private enum Key: String, CodingKey { case filename, title, description, takenAt }

    /// Writes only the fields being changed, with a cleared field as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(filename, forKey: .filename)
        if let title { try container.encode(title, forKey: .title) }
        if let description { try container.encode(description, forKey: .description) }
        if let takenAt {
            // To the millisecond: a shifted capture time keeps its fraction.
            let text = takenAt.map(ISO8601.string(from:))
            try container.encode(text, forKey: .takenAt)
        }
    }
}

/// A change to a tag (`PATCH /tags/{id}`): nil leaves a field as it is; a colour of `.some(nil)` clears it.
public struct TagUpdate: Sendable, Encodable {
    /// The new name; nil keeps it.
    public var name: String?
    /// The new colour, such as `#ff8800`; nil keeps it, `.some(nil)` clears it.
    public var color: String??

    /// A change to the given fields; the rest stay as they are.
    public init(name: String? = nil, color: String?? = nil) {
        self.name = name
        self.color = color
    }

    private enum Key: String, CodingKey { case name, color }

    /// Writes only the fields being changed, with a cleared colour as `null`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encodeIfPresent(name, forKey: .name)
        if let color { try container.encode(color, forKey: .color) }
    }
}

/// The body of `POST /tags`.
struct NewTag: Sendable, Encodable {
    let name: String
    let color: String?
}

/// The body of `PUT /photos/{id}/tags`.
struct TagIDList: Sendable, Encodable {
    let tagIds: [Int]
}
