import Foundation
import PhotoPickKit

extension BrowserState {
    /// How many photo edits are unconfirmed.
    public var unsentPhotoEdits: Int { pendingEdits.count }

    /// The photos with edits not yet confirmed.
    public var photosWithUnsentEdits: Set<Int> { pendingEdits.photoIDs }

    /// Shows the changes at once, keeps them for undo and asks for them to be written to the outbox
    /// before anything is sent. A change to the value a photo already shows is left out. `summary`
    /// replaces the status line's count of what changed.
    mutating func editPhotos(_ changes: [PhotoFieldChange], summary: String? = nil) -> [BrowserEffect] {
        if let reason = account.disabledReason(.editing) { return post(.warning, reason) }
        let (edits, done) = stageEdits(changes)
        guard !edits.isEmpty else { return post(.info, "Nothing changed: the photos already have those values.") }
        undoStack.append(.fields(done))
        if undoStack.count > 100 { undoStack.removeFirst() }
        return [.recordPhotoEdits(edits)] + post(.info, summary ?? Self.describeEdits(done))
    }

    /// Shows the changes and returns their outbox entries and what each did, for undo.
    private mutating func stageEdits(_ changes: [PhotoFieldChange]) -> ([PhotoEdit], [FieldEdit]) {
        var edits: [PhotoEdit] = []
        var done: [FieldEdit] = []
        var photos: [Int: Photo] = [:]
        for change in changes {
            guard let index = library.index(ofID: change.photoID) else { continue }
            var photo = photos[index] ?? library.photo(at: index)
            let current = change.field.value(of: photo)
            guard current != change.value, change.field != .filename || change.value != nil else { continue }
            let seen = pendingEdits.edit(of: change.photoID, change.field)?.seen ?? current
            let edit = PhotoEdit(sequence: nextSequence, photoID: change.photoID, field: change.field, value: change.value, seen: seen)
            nextSequence += 1
            pendingEdits.record(edit)
            edits.append(edit)
            done.append(FieldEdit(photoID: change.photoID, field: change.field, old: current, new: change.value))
            change.field.set(change.value, on: &photo)
            photos[index] = photo
        }
        show(photos)
        return (edits, done)
    }

    /// Puts edited copies of photos in their places and moves them in the list (a new capture time or
    /// name moves a photo in the order, and may join or leave a burst).
    private mutating func show(_ photos: [Int: Photo]) {
        guard !photos.isEmpty else { return }
        for (index, photo) in photos { library.replace(at: index, with: photo) }
        list.update(removing: [], repositioning: Array(photos.keys), library: library, selection: selection)
        reanchorVisualRange()
    }

    /// Undoes one press's field edits by recording the old values, as durable as the edit was.
    mutating func undoFieldEdits(_ done: [FieldEdit]) -> [BrowserEffect] {
        if let reason = account.disabledReason(.editing) { return post(.warning, reason) }
        let changes = done.reversed().map { PhotoFieldChange(photoID: $0.photoID, field: $0.field, value: $0.old) }
        let (edits, _) = stageEdits(changes)
        guard !edits.isEmpty else { return post(.info, "Nothing to undo: the photos already have their old values.") }
        return [.recordPhotoEdits(edits)] + post(.info, "Undone: \(Self.describeEdits(done))")
    }

    /// Edits left from the last session: shown on their photos now and as photos arrive.
    mutating func restoreEdits(_ edits: [PhotoEdit]) -> [BrowserEffect] {
        pendingEdits = PendingEdits(restoring: edits)
        var photos: [Int: Photo] = [:]
        for photoID in Set(edits.map(\.photoID)) {
            guard let index = library.index(ofID: photoID) else { continue }
            photos[index] = pendingEdits.applied(to: library.photo(at: index))
        }
        show(photos)
        return []
    }

    /// The server took a photo's edits: its fields are the server's now, with any edit still waiting on top.
    mutating func photoEditsSent(photoID: Int, sequences: [Int64], photo server: Photo, overwritten: [PhotoField]) -> [BrowserEffect] {
        pendingEdits.remove(of: photoID, sequences: Set(sequences))
        if loading.isWalking { confirmedEdits[photoID] = server }
        var effects: [BrowserEffect] = [.savePhoto(server)]
        if let index = library.index(ofID: photoID) {
            var shown = library.photo(at: index)
            for field in PhotoField.allCases { field.set(field.value(of: server), on: &shown) }
            shown = pendingEdits.applied(to: shown)
            if shown != library.photo(at: index) { show([index: shown]) }
        }
        if !overwritten.isEmpty {
            let fields = overwritten.map(\.label).joined(separator: " and ")
            effects += post(.warning, "The \(fields) of \(server.filename) had changed on the server since you saw it; your edit replaced it.")
        }
        return effects
    }

    /// The server refused a photo's edits for good: each goes back to what the user saw before it.
    mutating func photoEditsRejected(photoID: Int, sequences: [Int64], reason: String) -> [BrowserEffect] {
        let removed = pendingEdits.remove(of: photoID, sequences: Set(sequences))
        revert(removed, of: photoID)
        let name = library.index(ofID: photoID).map { library[$0].filename } ?? "photo \(photoID)"
        let fields = removed.map(\.field.label).joined(separator: " and ")
        return post(.error, "Could not change the \(fields.isEmpty ? "fields" : fields) of \(name): \(reason) The change was undone.")
    }

    /// The outbox could not store the edits: nothing will be sent, so the screen goes back.
    mutating func photoEditsNotRecorded(_ edits: [PhotoEdit], reason: String) -> [BrowserEffect] {
        for (photoID, group) in Dictionary(grouping: edits, by: \.photoID) {
            revert(pendingEdits.remove(of: photoID, sequences: Set(group.map(\.sequence))), of: photoID)
        }
        // The press's own step leaves the undo stack; an undo's write that failed had taken its step already.
        let failed = Set(edits.map { "\($0.photoID)/\($0.field.rawValue)" })
        if case .fields(let done)? = undoStack.last, Set(done.map { "\($0.photoID)/\($0.field.rawValue)" }) == failed {
            undoStack.removeLast()
        }
        return post(.error, "An edit could not be saved (\(reason)); it was undone on screen.")
    }

    /// Shows the values seen before `edits`, where no later edit of the field waits.
    private mutating func revert(_ edits: [PhotoEdit], of photoID: Int) {
        guard let index = library.index(ofID: photoID), !edits.isEmpty else { return }
        var shown = library.photo(at: index)
        for edit in edits where pendingEdits.edit(of: photoID, edit.field) == nil {
            edit.field.set(edit.seen, on: &shown)
        }
        show([index: shown])
    }

    /// “12 renamed, 3 retitled.”: what the fields edits changed, by photo.
    static func describeEdits(_ done: [FieldEdit]) -> String {
        func count(_ field: PhotoField) -> Int { Set(done.filter { $0.field == field }.map(\.photoID)).count }
        let parts = [
            (count(.filename), "renamed"), (count(.title), "retitled"),
            (count(.description), "described"), (count(.takenAt), "given a new capture time"),
        ].filter { $0.0 > 0 }.map { "\($0.0.formatted()) \($0.1)" }
        let photos = Set(done.map(\.photoID)).count
        return "Edited \(photos == 1 ? "1 photo" : "\(photos.formatted()) photos"): \(parts.joined(separator: ", "))."
    }
}
