import Foundation

/// A change to one nullable field: leave it, set it, or clear it (`.set(nil)`).
enum FieldUpdate<Value: Sendable & Equatable>: Sendable, Equatable {
    case unchanged
    case set(Value?)
}

/// A `PATCH /photos/{id}` body after validation; omitted fields are unchanged.
struct PhotoPatch: Sendable {
    var filename: String?
    var title: FieldUpdate<String> = .unchanged
    var description: FieldUpdate<String> = .unchanged
    var takenAt: FieldUpdate<CaptureTime> = .unchanged
}

/// A capture time as the library keeps it: Unix seconds and the milliseconds after them.
struct CaptureTime: Sendable, Equatable {
    var seconds: Int64
    var milliseconds: Int
}

/// A `PATCH /tags/{id}` body after validation.
struct TagPatch: Sendable {
    var name: String?
    var color: FieldUpdate<String> = .unchanged
}

/// What a tag write came to.
enum TagWriteOutcome: Sendable {
    case written(TagRecord)
    case notFound
    /// Another tag already has that name (case-insensitively, after trimming).
    case conflict(existing: TagRecord)
}

/// What `PUT /photos/{id}/tags` came to.
enum PhotoTagsOutcome: Sendable {
    case replaced([Int64])
    case photoNotFound
    case unknownTags([Int64])
}

extension TagRecord {
    /// The uniqueness key of a tag name: canonically composed and case-folded, so "Café" in
    /// either Unicode form and "Straße"/"STRASSE" are one name.
    static func nameKey(_ name: String) -> String {
        name.precomposedStringWithCanonicalMapping.folding(options: [.caseInsensitive], locale: nil)
    }
}
