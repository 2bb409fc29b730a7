import PhotoPickKit

/// What the user does with tags and culling marks.
public enum TagEvent: Sendable {
    case tagToggled(tagID: Int)
    case tagNumberPressed(Int)
    /// A script's `tag add` or `tag rm`: the tag goes on (or comes off) exactly these photos, those that
    /// already have it (or lack it) left as they are; a mark's tag replaces its sibling.
    case tagEditRequested(tagID: Int, change: TagChange, photoIDs: [Int])
    /// Creates a tag, then adds it to the photos with these ids once the server has made it.
    case tagCreationRequested(name: String, color: String?, applyTo: [Int] = [])
    case tagRenameRequested(tagID: Int, name: String)
    case tagRecolourRequested(tagID: Int, color: String?)
    case tagDeletionRequested(tagID: Int)
    /// `P`, `X`, a rating or a label key: the mark goes on the targets, replacing its sibling.
    case markChosen(Mark)
    /// A mark key on one photo, not the selection or the cursor: the active photo of compare.
    case photoMarked(MarkKey, photoID: Int)
    /// `U` (flags) or `0` (ratings): the targets lose their mark of that family.
    case markCleared(Mark.Family)
    /// A label key: sets the label, or takes it off when every target already has it.
    case labelToggled(Mark.ColourLabel)
}

/// What the server and the outbox report of tags: only the session's own effects send these.
package enum TagReport: Sendable {
    /// Tags the outbox still waits to create, sent before `sessionStarted` so its deltas find them.
    case pendingTagsRestored([PendingTag])
    case tagsLoaded([PhotoPickKit.Tag])
    case tagsFailed(String)
    case tagDeltasNotRecorded([TagDelta], reason: String)
    /// The outbox could not store a bulk: nothing of it will be sent.
    case tagBulkNotRecorded(TagBulk, reason: String)
    /// The outbox made a bulk's photos up to `expanded` into the deltas it stored.
    case tagBulkExpanded(sequence: Int64, expanded: Int, deltas: [TagDelta])
    case tagDeltasSent(photoID: Int, sequences: [Int64], serverTagIDs: [Int])
    case tagDeltasRejected(photoID: Int, sequences: [Int64], reason: String)
    case tagSendingDelayed(reason: String)
    case tagSaved(PhotoPickKit.Tag)
    /// The server made a pending tag (or had one of its name): edits under its placeholder now name it.
    case tagCreated(PhotoPickKit.Tag, placeholderID: Int)
    /// The server refused a pending tag for good; its photos' deltas were reported rejected first.
    case tagCreationRejected(placeholderID: Int, reason: String)
    case tagDeleted(id: Int)
    case tagOperationFailed(String)
}

/// Tags and culling marks: the tag list, the tag edits not yet confirmed, and the replay of those a
/// last session left. A room of its own because marks are tags: both go through one outbox, one undo
/// and one read-modify-write per photo.
struct Tagging: Sendable {
    /// Every tag.
    var tags: TagCatalog
    /// Tag deltas recorded but not yet confirmed: the latest wish per photo and tag.
    var pending = PendingTagDeltas()
    /// The tags the server confirmed for a photo during the walk under way: a page asked for before the
    /// write may arrive after it, and must not put the old set back.
    var confirmed: [Int: [Int]] = [:]
    /// How the replay of deltas restored from the last session goes, until none of them waits.
    var replay: Replay?

    /// The photos whose restored deltas were sent, or refused.
    struct Replay: Sendable {
        var sent = Set<Int>()
        var rejected = Set<Int>()
    }

    /// What the parent passes: what the user points at, what the key may do, whether a walk is under way.
    struct Context {
        let selection: Selection
        let cursorIndex: Int?
        let account: AccountStatus
        let isWalking: Bool
        /// The other file of a closed RAW+JPEG pair whose row a photo is, if any.
        var partner: (Int) -> Int? = { _ in nil }

        /// The photos a tag key acts on: the selection, or the photo under the cursor when nothing is
        /// selected, each with the other file of its pair.
        var targets: [Int] {
            expand(selection.isEmpty ? cursorIndex.map { [$0] } ?? [] : selection.indices)
        }

        /// `indices` with the other file of each closed pair, each once (a bit each: select all is a
        /// million photos).
        func expand(_ indices: [Int]) -> [Int] {
            var result: [Int] = []
            result.reserveCapacity(indices.count)
            var seen = Bitset()
            for index in indices {
                if seen.insert(index) { result.append(index) }
                if let other = partner(index), seen.insert(other) { result.append(other) }
            }
            return result
        }
    }

    init(markNames: MarkNames) {
        tags = TagCatalog(markNames: markNames)
    }

    mutating func reduce(_ event: TagEvent, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch event {
        case .tagToggled(let tagID): return toggleTag(tagID, &shared, context)
        case .tagNumberPressed(let number): return toggleTag(number: number, &shared, context)
        case .tagEditRequested(let tagID, let change, let photoIDs): return editTag(tagID, change, photoIDs: photoIDs, &shared, context)
        case .tagCreationRequested(let name, let color, let photoIDs):
            return requestTagCreation(name: name, color: color, applyTo: photoIDs, &shared, context)
        case .tagRenameRequested(let id, let name): return requestTagRename(id: id, name: name, &shared, context)
        case .tagRecolourRequested(let id, let color): return requestTagRecolour(id: id, color: color, &shared, context)
        case .tagDeletionRequested(let id): return requestTagDeletion(id: id, &shared, context)
        case .markChosen(let mark): return setMark(mark, &shared, context)
        case .photoMarked(let key, let photoID): return mark(key, photoID: photoID, &shared, context)
        case .markCleared(let family): return clearMarks(family, &shared, context)
        case .labelToggled(let label): return toggleLabel(label, &shared, context)
        }
    }

    mutating func receive(_ report: TagReport, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch report {
        case .pendingTagsRestored(let restored):
            for tag in restored { tags.addPending(tag) }
            shared.news.tagsChanged = true
            return []
        case .tagsLoaded(let loaded):
            tags.replaceAll(loaded)
            shared.news.tagsChanged = true
            return []
        case .tagsFailed(let reason): return shared.post(.error, "Could not load tags: \(reason)")
        case .tagDeltasNotRecorded(let deltas, let reason): return rollBack(deltas, reason: "could not be saved (\(reason))", &shared)
        case .tagBulkNotRecorded(let bulk, let reason):
            pending.removeBulks { $0.sequence == bulk.sequence }
            revert(bulk, &shared)
            return shared.post(.error, "A tag change could not be saved (\(reason)); it was undone on screen.")
        case .tagBulkExpanded(let sequence, let expanded, let deltas):
            pending.expand(sequence, to: expanded, deltas: deltas)
            return []
        case .tagDeltasSent(let photoID, let sequences, let serverTagIDs):
            return deltasSent(photoID: photoID, sequences: sequences, serverTagIDs: serverTagIDs, &shared, context)
        case .tagDeltasRejected(let photoID, let sequences, let reason):
            return deltasRejected(photoID: photoID, sequences: sequences, reason: reason, &shared)
        case .tagSendingDelayed(let reason):
            return shared.post(.warning, "Tag edits are saved and will be sent when the server answers: \(reason)")
        case .tagSaved(let tag): return tagSaved(tag, &shared)
        case .tagCreated(let tag, let placeholderID): return tagCreated(tag, placeholderID: placeholderID, &shared)
        case .tagCreationRejected(let placeholderID, let reason): return tagCreationRejected(placeholderID, reason: reason, &shared)
        case .tagDeleted(let id): return tagDeleted(id, &shared)
        case .tagOperationFailed(let reason): return shared.post(.error, reason)
        }
    }

    /// What the outbox held at the start: shown on the photos as they arrive, and replayed.
    mutating func restore(_ outbox: [TagDelta], bulks: [TagBulk], below nextSequence: Int64) {
        pending = PendingTagDeltas(restoring: outbox, bulks: bulks, below: nextSequence)
        if !outbox.isEmpty { replay = Replay() }
    }

    /// The bulks waiting, on the photos of a library just read: a tag set changed per bulk, not a photo
    /// at a time.
    func overlayBulks(on library: inout PhotoLibrary) {
        for bulk in pending.bulks {
            var photos = Bitset()
            for id in bulk.photoIDs[bulk.expanded...] { if let index = library.index(ofID: id) { photos.insert(index) } }
            library.setTag(bulk.tagID, on: photos, bulk.change == .add)
        }
    }

    /// The tag list the catalogue kept, until the server's arrives.
    mutating func restore(_ kept: [PhotoPickKit.Tag]) {
        if !kept.isEmpty, !tags.isLoaded { tags.replaceAll(kept) }
    }

    /// `photo` as photopick shows it: the tags the walk's writes confirmed, with unsent deltas on top.
    func shown(_ photo: Photo) -> Photo {
        var shown = photo
        shown.tagIDs = shownTags(of: photo.id, photo.tagIDs)
        return shown
    }

    /// The tags a photo carrying `stored` is shown with: what this walk's writes confirmed, and the
    /// edits not yet sent on top.
    func shownTags(of photoID: Int, _ stored: [Int]) -> [Int] {
        var tags = confirmed[photoID] ?? stored
        let wishes = pending.wishes(of: photoID)
        if !wishes.isEmpty { tags = wishes.reduce(tags) { $1.applied(to: $0) } }
        return tags
    }

    /// Photos photopick deleted: nothing is left to send for them.
    mutating func forget(_ photoIDs: [Int]) {
        for id in photoIDs { pending.remove(of: id) { _ in true } }
    }

    /// “1 photo”, “1,200 photos”.
    static func photos(_ count: Int) -> String {
        count == 1 ? "1 photo" : "\(count.formatted()) photos"
    }
}
