import Foundation
import PhotoPickKit

/// What the user asks of photos' fields.
public enum EditEvent: Sendable {
    /// `E`, the editor, a time shift or a script's `edit`: these fields get these values. The browser's
    /// edit of a closed RAW+JPEG pair's row reaches its other file too; a script's (`exact`) only the
    /// files it names, as every verb's `--ids` does.
    case photosEdited([PhotoFieldChange], summary: String? = nil, exact: Bool = false)
}

/// What the outbox and the server report of field edits: only the session's own effects send these.
package enum EditReport: Sendable {
    /// Photo edits the outbox held from the last session, sent before `sessionStarted`.
    case photoEditsRestored([PhotoEdit])
    case photoEditsNotRecorded([PhotoEdit], reason: String)
    /// The server took a photo's edits; `overwritten` are the fields it had changed since the user saw them.
    case photoEditsSent(photoID: Int, sequences: [Int64], photo: Photo, overwritten: [PhotoField])
    case photoEditsRejected(photoID: Int, sequences: [Int64], reason: String)
    case photoEditSendingDelayed(reason: String)
}

/// Edits of photos' fields (file name, title, description, capture time): shown at once, durable in
/// their outbox, undone by writing the old values. A room of its own because its outbox, its sender and
/// its conflicts (a field changed elsewhere) are its own; it shares only the undo ledger with tags.
struct Editing: Sendable {
    /// Photo edits recorded but not yet confirmed: the latest wish per photo and field.
    private(set) var pending = PendingEdits()
    /// The server's copy of a photo just after an edit was written, kept for the walk under way, whose
    /// older pages must not put the old values back.
    var confirmed: [Int: Photo] = [:]

    /// What the parent passes: what the key may do, whether a walk is under way.
    struct Context {
        let account: AccountStatus
        let isWalking: Bool
    }

    mutating func reduce(_ event: EditEvent, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch event {
        // The parent has made a browser's changes reach the pairs' other files.
        case .photosEdited(let changes, let summary, _): return editPhotos(changes, summary: summary, &shared, context)
        }
    }

    mutating func receive(_ report: EditReport, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch report {
        case .photoEditsRestored(let edits): return restore(edits, &shared)
        case .photoEditsNotRecorded(let edits, let reason): return notRecorded(edits, reason: reason, &shared)
        case .photoEditsSent(let photoID, let sequences, let photo, let overwritten):
            return sent(photoID: photoID, sequences: sequences, photo: photo, overwritten: overwritten, &shared, context)
        case .photoEditsRejected(let photoID, let sequences, let reason): return rejected(photoID: photoID, sequences: sequences, reason: reason, &shared)
        case .photoEditSendingDelayed(let reason):
            return shared.post(.warning, "Edits are saved and will be sent when the server answers: \(reason)")
        }
    }

    /// `photo` as photopick shows it: the fields the walk's writes confirmed, with unsent edits on top.
    func shown(_ photo: Photo) -> Photo {
        var shown = photo
        if let written = confirmed[photo.id] {
            for field in PhotoField.allCases { field.set(field.value(of: written), on: &shown) }
        }
        return pending.applied(to: shown)
    }

    /// Photos photopick deleted: nothing is left to send for them.
    mutating func forget(_ photoIDs: [Int]) {
        for id in photoIDs {
            if let edits = pending[id] { pending.remove(of: id, sequences: Set(edits.map(\.sequence))) }
        }
    }

    /// Shows the changes at once, keeps them for undo and asks for them to be written to the outbox
    /// before anything is sent. A change to the value a photo already shows is left out. `summary`
    /// replaces the status line's count of what changed.
    private mutating func editPhotos(_ changes: [PhotoFieldChange], summary: String?, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.editing) { return shared.post(.warning, reason) }
        let (edits, done) = stage(changes, &shared)
        guard !edits.isEmpty else { return shared.post(.info, "Nothing changed: the photos already have those values.") }
        shared.ledger.remember(.fields(done))
        return [.recordPhotoEdits(edits)] + shared.post(.info, summary ?? Self.describe(done))
    }

    /// Undoes one press's field edits by recording the old values, as durable as the edit was.
    mutating func undo(_ done: [FieldEdit], _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.editing) { return shared.post(.warning, reason) }
        let changes = done.reversed().map { PhotoFieldChange(photoID: $0.photoID, field: $0.field, value: $0.old) }
        let (edits, _) = stage(changes, &shared)
        guard !edits.isEmpty else { return shared.post(.info, "Nothing to undo: the photos already have their old values.") }
        return [.recordPhotoEdits(edits)] + shared.post(.info, "Undone: \(Self.describe(done))")
    }

    /// Shows the changes and returns their outbox entries and what each did, for undo.
    private mutating func stage(_ changes: [PhotoFieldChange], _ shared: inout Shared) -> ([PhotoEdit], [FieldEdit]) {
        var edits: [PhotoEdit] = []
        var done: [FieldEdit] = []
        var photos: [Int: Photo] = [:]
        for change in changes {
            guard let index = shared.library.index(ofID: change.photoID) else { continue }
            var photo = photos[index] ?? shared.library.photo(at: index)
            let current = change.field.value(of: photo)
            guard current != change.value, change.field != .filename || change.value != nil else { continue }
            let seen = pending.edit(of: change.photoID, change.field)?.seen ?? current
            let edit = PhotoEdit(sequence: shared.ledger.takeSequence(), photoID: change.photoID, field: change.field, value: change.value, seen: seen)
            pending.record(edit)
            edits.append(edit)
            done.append(FieldEdit(photoID: change.photoID, field: change.field, old: current, new: change.value))
            change.field.set(change.value, on: &photo)
            photos[index] = photo
        }
        for (index, photo) in photos { shared.library.replace(at: index, with: photo) }
        return (edits, done)
    }

    /// Edits left from the last session: shown on their photos now and as photos arrive.
    private mutating func restore(_ edits: [PhotoEdit], _ shared: inout Shared) -> [BrowserEffect] {
        pending = PendingEdits(restoring: edits)
        for photoID in Set(edits.map(\.photoID)) {
            guard let index = shared.library.index(ofID: photoID) else { continue }
            shared.library.replace(at: index, with: pending.applied(to: shared.library.photo(at: index)))
        }
        return []
    }

    /// The server took a photo's edits: its fields are the server's now, with any edit still waiting on top.
    private mutating func sent(
        photoID: Int, sequences: [Int64], photo server: Photo, overwritten: [PhotoField], _ shared: inout Shared, _ context: Context
    ) -> [BrowserEffect] {
        pending.remove(of: photoID, sequences: Set(sequences))
        if context.isWalking { confirmed[photoID] = server }
        var effects: [BrowserEffect] = [.savePhoto(server)]
        if let index = shared.library.index(ofID: photoID) {
            var shown = shared.library.photo(at: index)
            for field in PhotoField.allCases { field.set(field.value(of: server), on: &shown) }
            shown = pending.applied(to: shown)
            if shown != shared.library.photo(at: index) { shared.library.replace(at: index, with: shown) }
        }
        if !overwritten.isEmpty {
            let fields = overwritten.map(\.label).joined(separator: " and ")
            effects += shared.post(.warning, "The \(fields) of \(server.filename) had changed on the server since you saw it; your edit replaced it.")
        }
        return effects
    }

    /// The server refused a photo's edits for good: each goes back to what the user saw before it.
    private mutating func rejected(photoID: Int, sequences: [Int64], reason: String, _ shared: inout Shared) -> [BrowserEffect] {
        let removed = pending.remove(of: photoID, sequences: Set(sequences))
        revert(removed, of: photoID, &shared)
        let name = shared.library.index(ofID: photoID).map { shared.library.filename(at: $0) } ?? "photo \(photoID)"
        let fields = removed.map(\.field.label).joined(separator: " and ")
        return shared.post(.error, "Could not change the \(fields.isEmpty ? "fields" : fields) of \(name): \(reason) The change was undone.")
    }

    /// The outbox could not store the edits: nothing will be sent, so the screen goes back.
    private mutating func notRecorded(_ edits: [PhotoEdit], reason: String, _ shared: inout Shared) -> [BrowserEffect] {
        for (photoID, group) in Dictionary(grouping: edits, by: \.photoID) {
            revert(pending.remove(of: photoID, sequences: Set(group.map(\.sequence))), of: photoID, &shared)
        }
        // The press's own step leaves the undo stack; an undo's write that failed had taken its step already.
        let failed = Set(edits.map { "\($0.photoID)/\($0.field.rawValue)" })
        shared.ledger.dropLastStep { step in
            guard case .fields(let done) = step else { return false }
            return Set(done.map { "\($0.photoID)/\($0.field.rawValue)" }) == failed
        }
        return shared.post(.error, "An edit could not be saved (\(reason)); it was undone on screen.")
    }

    /// Shows the values seen before `edits`, where no later edit of the field waits.
    private mutating func revert(_ edits: [PhotoEdit], of photoID: Int, _ shared: inout Shared) {
        guard let index = shared.library.index(ofID: photoID), !edits.isEmpty else { return }
        var shown = shared.library.photo(at: index)
        for edit in edits where pending.edit(of: photoID, edit.field) == nil {
            edit.field.set(edit.seen, on: &shown)
        }
        shared.library.replace(at: index, with: shown)
    }

    /// “12 renamed, 3 retitled.”: what the fields edits changed, by photo.
    static func describe(_ done: [FieldEdit]) -> String {
        func count(_ field: PhotoField) -> Int { Set(done.filter { $0.field == field }.map(\.photoID)).count }
        let parts = [
            (count(.filename), "renamed"), (count(.title), "retitled"),
            (count(.description), "described"), (count(.takenAt), "given a new capture time"),
        ].filter { $0.0 > 0 }.map { "\($0.0.formatted()) \($0.1)" }
        let photos = Set(done.map(\.photoID)).count
        return "Edited \(photos == 1 ? "1 photo" : "\(photos.formatted()) photos"): \(parts.joined(separator: ", "))."
    }
}
