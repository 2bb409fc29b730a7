import PhotoPickKit

/// Photo edits recorded but not yet confirmed, per photo, at most one per field: the latest wish, as
/// the outbox keeps them.
struct PendingEdits: Sendable {
    private var byPhoto: [Int: [PhotoEdit]] = [:]
    /// How many edits wait.
    private(set) var count = 0

    /// Starts from what the outbox held.
    init(restoring edits: [PhotoEdit] = []) {
        for edit in edits { record(edit) }
    }

    /// The photos with edits waiting.
    var photoIDs: Set<Int> { Set(byPhoto.keys) }

    /// A photo's waiting edits, oldest first.
    subscript(photoID: Int) -> [PhotoEdit]? { byPhoto[photoID] }

    /// The waiting edit of one field of a photo.
    func edit(of photoID: Int, _ field: PhotoField) -> PhotoEdit? {
        byPhoto[photoID]?.first { $0.field == field }
    }

    /// Keeps `edit` as its photo's wish for its field, in place of an earlier one.
    mutating func record(_ edit: PhotoEdit) {
        var edits = byPhoto[edit.photoID] ?? []
        if let earlier = edits.firstIndex(where: { $0.field == edit.field }) {
            edits.remove(at: earlier)
            count -= 1
        }
        edits.append(edit)
        count += 1
        byPhoto[edit.photoID] = edits
    }

    /// Drops the photo's edits with these sequences; returns those removed.
    @discardableResult
    mutating func remove(of photoID: Int, sequences: Set<Int64>) -> [PhotoEdit] {
        guard let edits = byPhoto[photoID] else { return [] }
        let removed = edits.filter { sequences.contains($0.sequence) }
        let remaining = edits.filter { !sequences.contains($0.sequence) }
        count -= removed.count
        byPhoto[photoID] = remaining.isEmpty ? nil : remaining
        return removed
    }

    /// `photo` as it will be once its waiting edits are sent.
    func applied(to photo: Photo) -> Photo {
        guard let edits = byPhoto[photo.id] else { return photo }
        var shown = photo
        for edit in edits { edit.field.set(edit.value, on: &shown) }
        return shown
    }
}
