import Foundation
import PhotoPickKit

/// Tag edits: shown at once, written to the outbox before the key's handling ends, undone by inverse
/// deltas as durable as the edit.
extension Tagging {
    mutating func toggleTag(number: Int, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        guard let tag = tags.tag(number: number) else {
            return shared.post(.warning, "No tag \(number): there are \(tags.tags.count) tags.", remedy: .pickTag)
        }
        return toggleTag(tag.id, &shared, context)
    }

    /// All-or-none: when every target has the tag it is removed from all of them, otherwise it is added
    /// to those that lack it.
    mutating func toggleTag(_ tagID: Int, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagging) { return shared.post(.warning, reason) }
        guard let tag = tags.tag(id: tagID) else { return shared.post(.warning, "That tag no longer exists.", remedy: .pickTag) }
        let targets = context.targets
        guard !targets.isEmpty else { return [] }
        let everyTargetHasIt = targets.allSatisfy { shared.library.has(tagID, at: $0) }
        // A mark's tag from the picker or a number key is still a mark: adding it replaces its sibling.
        if !everyTargetHasIt, let mark = tags.mark(ofTag: tagID) { return setMark(mark, &shared, context) }
        let change: TagChange = everyTargetHasIt ? .remove : .add
        let changing = everyTargetHasIt ? targets : targets.filter { !shared.library.has(tagID, at: $0) }
        let edit = TagEdit(tagID: tagID, change: change, photoIDs: changing.map { shared.library.id(at: $0) })
        shared.ledger.remember(.tags([edit]))
        return record(edit, at: changing, &shared) + shared.post(.info, Self.describe(edit, tagName: tag.name, shots: shared.library.pairs.shots(changing)))
    }

    /// Adds or removes a tag on the photos with these ids, whatever the selection: for scripts.
    mutating func editTag(_ tagID: Int, _ change: TagChange, photoIDs: [Int], _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagging) { return shared.post(.warning, reason) }
        guard let tag = tags.tag(id: tagID) else { return shared.post(.warning, "That tag no longer exists.", remedy: .pickTag) }
        // A script names files: exactly those (a query's already holds both files of a pair).
        let indices = photoIDs.compactMap(shared.library.index(ofID:))
        if change == .add, let mark = tags.mark(ofTag: tagID) { return setMark(mark, on: indices, &shared, context) }
        let changing = indices.filter { shared.library.has(tagID, at: $0) == (change == .remove) }
        guard !changing.isEmpty else { return [] }
        let edit = TagEdit(tagID: tagID, change: change, photoIDs: changing.map { shared.library.id(at: $0) })
        shared.ledger.remember(.tags([edit]))
        return record(edit, at: changing, &shared) + shared.post(.info, Self.describe(edit, tagName: tag.name))
    }

    /// Undoes one press's tag changes by recording their inverses, newest first, so the undo is as
    /// durable as the edit.
    mutating func undo(_ edits: [TagEdit], _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagging) { return shared.post(.warning, reason) }
        // One outbox write for the press's small edits, as the press itself was; a bulk its own.
        var deltas: [TagDelta] = []
        var bulkEffects: [BrowserEffect] = []
        for edit in edits.reversed() {
            let inverse = edit.inverse
            let indices = inverse.photoIDs.compactMap(shared.library.index(ofID:)).filter { index in
                shared.library.has(inverse.tagID, at: index) == (inverse.change == .remove)
            }
            if indices.count >= Self.bulkSize {
                bulkEffects += record(inverse, at: indices, &shared)
            } else {
                deltas += stage(inverse, at: indices, &shared)
            }
        }
        let described = edits.count == 1
            ? Self.describe(edits[0], tagName: tags.tag(id: edits[0].tagID)?.name ?? "tag \(edits[0].tagID)")
            : "the tag changes of \(Self.photos(Set(edits.flatMap(\.photoIDs)).count))."
        return recordEffects(deltas) + bulkEffects + shared.post(.info, "Undone: \(described)")
    }

    /// From how many photos an edit goes to the outbox as one bulk (`TagBulk`) rather than a row each.
    static let bulkSize = 500

    /// Shows the edit at once and asks for it to be written to the outbox: a delta per photo, or one
    /// bulk for many.
    mutating func record(_ edit: TagEdit, at indices: [Int], _ shared: inout Shared) -> [BrowserEffect] {
        guard indices.count >= Self.bulkSize else { return recordEffects(stage(edit, at: indices, &shared)) }
        let ids = indices.map(shared.library.id(at:)).sorted()
        let bulk = TagBulk(sequence: shared.ledger.takeSequences(ids.count), tagID: edit.tagID, change: edit.change, photoIDs: ids)
        shared.library.setTag(edit.tagID, on: Bitset(indices), edit.change == .add)
        pending.record(bulk)
        let creations = PendingTag.isPlaceholder(edit.tagID) ? tags.pending[edit.tagID].map { [$0] } ?? [] : []
        return [.recordTagBulk(bulk, creating: creations)]
    }

    /// Takes a bulk off the screen: its photos get back what they had.
    mutating func revert(_ bulk: TagBulk, _ shared: inout Shared) {
        var photos = Bitset()
        for id in bulk.photoIDs { if let index = shared.library.index(ofID: id) { photos.insert(index) } }
        shared.library.setTag(bulk.tagID, on: photos, bulk.change == .remove)
    }

    /// Shows the edit at once and returns its deltas, each the photo's latest wish for the tag.
    mutating func stage(_ edit: TagEdit, at indices: [Int], _ shared: inout Shared) -> [TagDelta] {
        var deltas: [TagDelta] = []
        deltas.reserveCapacity(indices.count)
        for index in indices {
            let delta = TagDelta(sequence: shared.ledger.takeSequence(), photoID: shared.library.id(at: index), tagID: edit.tagID, change: edit.change)
            shared.library.setTag(edit.tagID, at: index, edit.change == .add)
            pending.record(delta)
            deltas.append(delta)
        }
        return deltas
    }

    /// The outbox write for deltas: with the creation of every tag they name that is not made yet, in
    /// the same write, so the intent is whole on disk before the key's handling ends.
    func recordEffects(_ deltas: [TagDelta]) -> [BrowserEffect] {
        guard !deltas.isEmpty else { return [] }
        let placeholders = Set(deltas.lazy.map(\.tagID).filter(PendingTag.isPlaceholder))
        guard !placeholders.isEmpty else { return [.recordTagDeltas(deltas)] }
        let creations = placeholders.sorted(by: >).compactMap { tags.pending[$0] }
        return [.recordTagCreation(creations, deltas: deltas)]
    }

    /// The outbox could not store the deltas: nothing will be sent, so the screen goes back.
    mutating func rollBack(_ deltas: [TagDelta], reason: String, _ shared: inout Shared) -> [BrowserEffect] {
        for (photoID, group) in Dictionary(grouping: deltas, by: \.photoID) {
            revert(group, of: photoID, &shared)
        }
        return shared.post(.error, "A tag change \(reason); it was undone on screen.")
    }

    /// Takes deltas off the screen: each is reverted, then later unsent ones on the same tag are made again.
    mutating func revert(_ deltas: [TagDelta], of photoID: Int, _ shared: inout Shared) {
        let removed = Set(deltas.map(\.sequence))
        let remaining = pending.remove(of: photoID) { removed.contains($0.sequence) }
        guard let index = shared.library.index(ofID: photoID) else { return }
        var shown = shared.library.tagIDs(at: index)
        for delta in deltas.reversed() where removed.contains(delta.sequence) {
            shown = delta.reverted(shown)
            for later in remaining where later.tagID == delta.tagID && later.sequence > delta.sequence {
                shown = later.applied(to: shown)
            }
        }
        shared.library.setTagIDs(shown, at: index)
    }

    /// The line for a tag edit on `shots` photos (a RAW+JPEG pair's two files counted once), by default its photos'.
    static func describe(_ edit: TagEdit, tagName: String, shots: Int? = nil) -> String {
        let photos = photos(shots ?? edit.photoIDs.count)
        return edit.change == .add ? "Tagged \(photos) “\(tagName)”." : "Removed “\(tagName)” from \(photos)."
    }
}
