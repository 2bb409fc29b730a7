import Foundation
import PhotoPickKit

extension BrowserState {
    /// The photos a tag key acts on: the selection, or the photo under the cursor when nothing is selected.
    public var tagTargets: [Int] {
        selection.isEmpty ? list.currentIndex.map { [$0] } ?? [] : selection.indices
    }

    /// How many photos a tag key acts on, without listing them.
    public var tagTargetCount: Int {
        selection.isEmpty ? (list.currentIndex == nil ? 0 : 1) : selection.count
    }

    mutating func toggleTag(number: Int) -> [BrowserEffect] {
        guard let tag = tags.tag(number: number) else {
            return post(.warning, "No tag \(number): there are \(tags.tags.count) tags.", remedy: .pickTag)
        }
        return toggleTag(tag.id)
    }

    /// All-or-none: when every target has the tag it is removed from all of them, otherwise it is added
    /// to those that lack it.
    mutating func toggleTag(_ tagID: Int) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        guard let tag = tags.tag(id: tagID) else { return post(.warning, "That tag no longer exists.", remedy: .pickTag) }
        let targets = tagTargets
        guard !targets.isEmpty else { return [] }
        let everyTargetHasIt = targets.allSatisfy { library[$0].tagIDs.contains(tagID) }
        // A mark's tag from the picker or a number key is still a mark: adding it replaces its sibling.
        if !everyTargetHasIt, let mark = tags.mark(ofTag: tagID) { return setMark(mark) }
        let change: TagDelta.Change = everyTargetHasIt ? .remove : .add
        let changing = everyTargetHasIt ? targets : targets.filter { !library[$0].tagIDs.contains(tagID) }
        let edit = TagEdit(tagID: tagID, change: change, photoIDs: changing.map { library[$0].id })
        remember([edit])
        return record(edit, at: changing) + post(.info, describe(edit, tagName: tag.name))
    }

    /// Adds or removes a tag on the photos with these ids, whatever the selection: for scripts.
    mutating func editTag(_ tagID: Int, _ change: TagDelta.Change, photoIDs: [Int]) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        guard let tag = tags.tag(id: tagID) else { return post(.warning, "That tag no longer exists.", remedy: .pickTag) }
        let indices = photoIDs.compactMap(library.index(ofID:))
        if change == .add, let mark = tags.mark(ofTag: tagID) { return setMark(mark, on: indices) }
        let changing = indices.filter { library[$0].tagIDs.contains(tagID) == (change == .remove) }
        guard !changing.isEmpty else { return [] }
        let edit = TagEdit(tagID: tagID, change: change, photoIDs: changing.map { library[$0].id })
        remember([edit])
        return record(edit, at: changing) + post(.info, describe(edit, tagName: tag.name))
    }

    /// Of `photoIDs`, those that carry the tag named `name` (any case, made or still pending) as shown,
    /// edits not yet sent included. Read before and after an edit, it says which photos the edit
    /// changed: what a message about the edit counts.
    public func photos(_ photoIDs: [Int], carryingTagNamed name: String) -> Set<Int> {
        guard let tag = tags.tag(named: name) else { return [] }
        return Set(photoIDs.filter { id in library.index(ofID: id).map { library[$0].tagIDs.contains(tag.id) } ?? false })
    }

    /// Keeps one key press's edits for undo, the last hundred presses at most.
    mutating func remember(_ edits: [TagEdit]) {
        guard !edits.isEmpty else { return }
        undoStack.append(.tags(edits))
        if undoStack.count > 100 { undoStack.removeFirst() }
    }

    /// Undoes the last key press's tag changes by recording their inverses, newest first, so the undo is
    /// as durable as the edit.
    mutating func undo() -> [BrowserEffect] {
        guard let step = undoStack.popLast() else { return post(.info, "Nothing to undo.") }
        let edits: [TagEdit]
        switch step {
        case .fields(let done): return undoFieldEdits(done)
        case .tags(let tagEdits): edits = tagEdits
        }
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        // One outbox write for the whole press, as the press itself was.
        var deltas: [TagDelta] = []
        for edit in edits.reversed() {
            let inverse = edit.inverse
            let indices = inverse.photoIDs.compactMap(library.index(ofID:)).filter { index in
                library[index].tagIDs.contains(inverse.tagID) == (inverse.change == .remove)
            }
            deltas += stage(inverse, at: indices)
        }
        let described = edits.count == 1
            ? describe(edits[0], tagName: tags.tag(id: edits[0].tagID)?.name ?? "tag \(edits[0].tagID)")
            : "the tag changes of \(photos(Set(edits.flatMap(\.photoIDs)).count))."
        return recordEffects(deltas) + post(.info, "Undone: \(described)")
    }

    /// Shows the edit at once and asks for its deltas to be written to the outbox.
    mutating func record(_ edit: TagEdit, at indices: [Int]) -> [BrowserEffect] {
        recordEffects(stage(edit, at: indices))
    }

    /// Shows the edit at once and returns its deltas, each the photo's latest wish for the tag.
    mutating func stage(_ edit: TagEdit, at indices: [Int]) -> [TagDelta] {
        var deltas: [TagDelta] = []
        deltas.reserveCapacity(indices.count)
        for index in indices {
            let photo = library[index]
            let delta = TagDelta(sequence: nextSequence, photoID: photo.id, tagID: edit.tagID, change: edit.change)
            nextSequence += 1
            let updated = delta.applied(to: photo.tagIDs)
            tags.recount(from: photo.tagIDs, to: updated)
            library.setTagIDs(updated, at: index)
            pendingDeltas.record(delta)
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
    mutating func rollBack(_ deltas: [TagDelta], reason: String) -> [BrowserEffect] {
        for (photoID, group) in Dictionary(grouping: deltas, by: \.photoID) {
            revert(group, of: photoID)
        }
        return post(.error, "A tag change \(reason); it was undone on screen.")
    }

    mutating func deltasSent(photoID: Int, sequences: [Int64], serverTagIDs: [Int]) -> [BrowserEffect] {
        let sent = Set(sequences)
        if loading.isWalking { confirmedTags[photoID] = serverTagIDs }
        let remaining = pendingDeltas.remove(of: photoID) { sent.contains($0.sequence) }
        if let index = library.index(ofID: photoID) {
            // The server's set now includes changes made elsewhere; edits still queued go on top of it.
            let shown = remaining.reduce(serverTagIDs) { $1.applied(to: $0) }
            tags.recount(from: library[index].tagIDs, to: shown)
            library.setTagIDs(shown, at: index)
        }
        return noteReplay(photoID, sequences, rejected: false)
    }

    mutating func deltasRejected(photoID: Int, sequences: [Int64], reason: String) -> [BrowserEffect] {
        let rejected = Set(sequences)
        revert((pendingDeltas[photoID] ?? []).filter { rejected.contains($0.sequence) }, of: photoID)
        let name = library.index(ofID: photoID).map { library[$0].filename } ?? "photo \(photoID)"
        return post(.error, "Could not change the tags of \(name): \(reason) The change was undone.")
            + noteReplay(photoID, sequences, rejected: true)
    }

    /// Takes deltas off the screen: each is reverted, then later unsent ones on the same tag are made again.
    private mutating func revert(_ deltas: [TagDelta], of photoID: Int) {
        let removed = Set(deltas.map(\.sequence))
        let remaining = pendingDeltas.remove(of: photoID) { removed.contains($0.sequence) }
        guard let index = library.index(ofID: photoID) else { return }
        var shown = library[index].tagIDs
        for delta in deltas.reversed() where removed.contains(delta.sequence) {
            shown = delta.reverted(shown)
            for later in remaining where later.tagID == delta.tagID && later.sequence > delta.sequence {
                shown = later.applied(to: shown)
            }
        }
        tags.recount(from: library[index].tagIDs, to: shown)
        library.setTagIDs(shown, at: index)
    }

    /// Counts the photos whose edits from the last session are settled, and reports once none waits.
    private mutating func noteReplay(_ photoID: Int, _ sequences: [Int64], rejected: Bool) -> [BrowserEffect] {
        guard var replay else { return [] }
        if sequences.contains(where: { $0 < pendingDeltas.restoredBelow }) {
            if rejected { replay.rejected.insert(photoID) } else { replay.sent.insert(photoID) }
        }
        self.replay = replay
        return reportReplayIfDone()
    }

    /// Says how the replay went once no restored delta waits: photos, not edits, are what the user acted on.
    mutating func reportReplayIfDone() -> [BrowserEffect] {
        guard let replay, pendingDeltas.restoredCount == 0 else { return [] }
        self.replay = nil
        let sent = replay.sent.subtracting(replay.rejected)
        guard !sent.isEmpty || !replay.rejected.isEmpty else { return [] }
        let text = "Sent the tag changes of \(photos(sent.count)) left from the last session"
        return replay.rejected.isEmpty
            ? post(.info, text + ".")
            : post(.warning, text + "; those of \(photos(replay.rejected.count)) could not be applied.")
    }

    func describe(_ edit: TagEdit, tagName: String) -> String {
        let photos = photos(edit.photoIDs.count)
        return edit.change == .add ? "Tagged \(photos) “\(tagName)”." : "Removed “\(tagName)” from \(photos)."
    }

    /// “1 photo”, “1,200 photos”.
    func photos(_ count: Int) -> String {
        count == 1 ? "1 photo" : "\(count.formatted()) photos"
    }
}
