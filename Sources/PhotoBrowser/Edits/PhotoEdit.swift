import Foundation
import PhotoPickFormats
import PhotoPickKit

/// A field of a photo that the API lets a key change (`PATCH /photos/{id}`).
public enum PhotoField: String, Sendable, Hashable, CaseIterable, Codable {
    case filename, title, description, takenAt

    /// How the status line and the form name it.
    public var label: String {
        switch self {
        case .filename: "file name"
        case .title: "title"
        case .description: "description"
        case .takenAt: "capture time"
        }
    }

    /// The field's value on `photo` as an edit stores it: text as it is, a capture time in ISO 8601 UTC.
    public func value(of photo: Photo) -> String? {
        switch self {
        case .filename: photo.filename
        case .title: photo.title
        case .description: photo.description
        case .takenAt: photo.takenAt.map(ISO8601.string(from:))
        }
    }

    /// `photo` with the field set to `value` (nil clears it; a file name is never cleared).
    func set(_ value: String?, on photo: inout Photo) {
        switch self {
        case .filename: if let value { photo.filename = value }
        case .title: photo.title = value
        case .description: photo.description = value
        case .takenAt: photo.takenAt = value.flatMap(ISO8601.date(from:))
        }
    }
}

/// What the user asked for one field of one photo: the value it should have (nil clears it).
public struct PhotoFieldChange: Sendable, Hashable {
    /// The photo.
    public let photoID: Int
    /// The field.
    public let field: PhotoField
    /// The new value; nil clears the field.
    public let value: String?

    /// A change of `field` of photo `photoID` to `value`.
    public init(photoID: Int, field: PhotoField, value: String?) {
        self.photoID = photoID
        self.field = field
        self.value = value
    }
}

/// One recorded edit, as the outbox keeps it: the latest wish for one field of one photo, and the value
/// the user saw before their first unsent wish for it, to tell whether the server's changed meanwhile.
package struct PhotoEdit: Sendable, Hashable {
    /// Order of recording, unique across the state database.
    let sequence: Int64
    /// The photo.
    let photoID: Int
    /// The field.
    let field: PhotoField
    /// The value wanted; nil clears the field.
    let value: String?
    /// The value shown before the edit: the server's, as far as the user knew.
    let seen: String?
}

/// What one edit did, for undo: each field's value before and after, per photo.
struct FieldEdit: Sendable, Hashable {
    let photoID: Int
    let field: PhotoField
    let old: String?
    let new: String?
}

/// One key press's worth of changes, undone together by `u`.
enum UndoStep: Sendable {
    case tags([TagEdit])
    case fields([FieldEdit])
}

extension PhotoUpdate {
    /// The update that sets each field of `edits` to its wished value.
    init(_ edits: [PhotoEdit]) {
        self.init()
        for edit in edits {
            switch edit.field {
            case .filename: filename = edit.value
            case .title: title = .some(edit.value)
            case .description: description = .some(edit.value)
            case .takenAt: takenAt = .some(edit.value.flatMap(ISO8601.date(from:)))
            }
        }
    }
}
