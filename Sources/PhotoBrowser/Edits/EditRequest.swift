import Foundation
import PhotoPickKit

/// What the edit form (`E`) or `photopick edit` asks of some photos: each field left alone (nil), or set.
/// A file name with a field in braces is a template, rendered per photo with `{n}` counting from 1.
public struct EditRequest: Sendable, Equatable {
    /// The new title; "" clears it.
    public var title: String?
    /// The new description; "" clears it.
    public var description: String?
    /// The new file name, or a template such as `{taken:%Y%m%d}_{n:03}.{extension}`.
    public var filename: String?
    /// A capture time to set exactly.
    public var takenAt: Date?
    /// A shift of the capture times, or their zone.
    public var adjustment: TimeAdjustment?

    /// A request that changes the given fields.
    public init(title: String? = nil, description: String? = nil, filename: String? = nil, takenAt: Date? = nil, adjustment: TimeAdjustment? = nil) {
        self.title = title
        self.description = description
        self.filename = filename
        self.takenAt = takenAt
        self.adjustment = adjustment
    }

    /// Whether it changes nothing.
    public var isEmpty: Bool { self == EditRequest() }

    /// Why a request cannot be applied, as one line.
    public struct Problem: Error, Equatable, CustomStringConvertible {
        /// The line for the user.
        public let description: String

        /// A problem told in `description`.
        package init(description: String) {
            self.description = description
        }
    }
}

extension BrowserState {
    /// The changes `request` makes to the photos with these ids, in this order (`{n}` counts in it).
    /// Values are kept exactly, newlines and tabs included; a template's fields have their slashes
    /// made `_`. Two photos may not end with one name: the problem names both.
    public func changes(for request: EditRequest, photoIDs: [Int]) throws(EditRequest.Problem) -> [PhotoFieldChange] {
        let indices = photoIDs.compactMap(library.index(ofID:))
        var changes: [PhotoFieldChange] = []
        func set(_ field: PhotoField, _ value: String?, of id: Int) {
            changes.append(PhotoFieldChange(photoID: id, field: field, value: value))
        }
        if let filename = request.filename {
            let names = try Self.names(filename, for: indices.map(listedPhoto(at:)))
            for (index, name) in zip(indices, names) { set(.filename, name, of: library.id(at: index)) }
        }
        for index in indices {
            let photo = library.photo(at: index)
            if let title = request.title { set(.title, title.isEmpty ? nil : title, of: photo.id) }
            if let description = request.description { set(.description, description.isEmpty ? nil : description, of: photo.id) }
            if let takenAt = request.takenAt {
                set(.takenAt, PhotoField.takenAt.value(of: Self.with(takenAt, photo)), of: photo.id)
            } else if let adjustment = request.adjustment, let taken = photo.takenAt {
                set(.takenAt, PhotoField.takenAt.value(of: Self.with(adjustment.applied(to: taken), photo)), of: photo.id)
            }
        }
        return changes.filter { change in
            library.index(ofID: change.photoID).map { change.field.value(of: library.photo(at: $0)) != change.value } ?? false
        }
    }

    /// Each photo's new name: the text itself for one photo, a template's rendering for each.
    static func names(_ text: String, for photos: [ListedPhoto]) throws(EditRequest.Problem) -> [String] {
        guard text.contains("{") || text.contains("}") else {
            guard photos.count <= 1 else {
                throw EditRequest.Problem(description: "one file name for \(photos.count) photos would give them all the same name; use a template such as {taken:%Y%m%d}_{n:03}.{extension}")
            }
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw EditRequest.Problem(description: "the file name is empty; give one, such as IMG_0001.JPG")
            }
            return photos.map { _ in text }
        }
        let template: PhotoTemplate
        do { template = try PhotoTemplate(text) } catch { throw EditRequest.Problem(description: "the file name template: \(error.description)") }
        let names = photos.enumerated().map { offset, photo in
            template.render(photo, sequence: offset + 1) { $0.replacingOccurrences(of: "/", with: "_") }
        }
        var seen: [String: Int] = [:]
        for (offset, name) in names.enumerated() {
            guard !name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw EditRequest.Problem(description: "the template gives photo \(photos[offset].id) an empty name; add {n} or {id}")
            }
            let key = name.precomposedStringWithCanonicalMapping.lowercased()
            if let earlier = seen[key] {
                throw EditRequest.Problem(description: "the template names photos \(photos[earlier].id) and \(photos[offset].id) both “\(name)”; add {n} or {id} to tell them apart")
            }
            seen[key] = offset
        }
        return names
    }

    private static func with(_ takenAt: Date, _ photo: Photo) -> Photo {
        var copy = photo
        copy.takenAt = takenAt
        return copy
    }
}

extension BulkEditFile.Change {
    /// The field changes the line asks for.
    package var fieldChanges: [PhotoFieldChange] {
        var changes: [PhotoFieldChange] = []
        if let filename { changes.append(PhotoFieldChange(photoID: id, field: .filename, value: filename)) }
        if let title { changes.append(PhotoFieldChange(photoID: id, field: .title, value: title)) }
        return changes
    }
}

extension BrowserState {
    /// The lines of a bulk edit of these photos: id, file name and title, in the order given.
    package func bulkEditEntries(_ photoIDs: [Int]) -> [BulkEditFile.Entry] {
        photoIDs.compactMap(library.index(ofID:)).map { index in
            let photo = library.photo(at: index)
            return BulkEditFile.Entry(id: photo.id, filename: photo.filename, title: photo.title)
        }
    }
}
