import Foundation
import PhotoPickFormats
import PhotoPickKit

/// A RAW+JPEG pair is one shot (issue 39), and an edit of its row is an edit of the shot, as Photo
/// Mechanic edits both files of a pair: its other file gets the same title and description, its
/// capture time moved by as much (so the two stay within the second that pairs them), and the new name
/// with its own extension (so the two keep one base name).
extension Editing {
    /// `changes` and, for each photo whose row is a closed pair, the same change of its other file,
    /// unless `changes` already holds one for that file and field.
    static func reachingPartners(_ changes: [PhotoFieldChange], _ library: PhotoLibrary, _ partner: (Int) -> Int?) -> [PhotoFieldChange] {
        var named = Set(changes.map { FieldOfPhoto(photoID: $0.photoID, field: $0.field) })
        var result = changes
        for change in changes {
            guard let index = library.index(ofID: change.photoID), let other = partner(index) else { continue }
            let otherID = library.id(at: other)
            guard named.insert(FieldOfPhoto(photoID: otherID, field: change.field)).inserted else { continue }
            let photo = library.photo(at: index), companion = library.photo(at: other)
            result.append(PhotoFieldChange(photoID: otherID, field: change.field, value: partnerValue(change, photo, companion)))
        }
        return result
    }

    private struct FieldOfPhoto: Hashable {
        let photoID: Int
        let field: PhotoField
    }

    /// What `change`, made to `photo`, makes of the same field of its pair's other file.
    private static func partnerValue(_ change: PhotoFieldChange, _ photo: Photo, _ companion: Photo) -> String? {
        switch change.field {
        case .title, .description: return change.value
        case .takenAt:
            guard let new = change.value.flatMap(ISO8601.date(from:)) else { return nil }
            guard let old = photo.takenAt, let its = companion.takenAt else { return change.value }
            return ISO8601.string(from: its.addingTimeInterval(new.timeIntervalSince(old)))
        case .filename:
            guard let new = change.value else { return companion.filename }
            return SafeFilename.split(new).0 + SafeFilename.split(companion.filename).1
        }
    }
}
