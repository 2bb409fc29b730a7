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

    /// Keeps one key press's edits for undo, the last hundred presses at most.
    mutating func remember(_ edits: [TagEdit]) {
        guard !edits.isEmpty else { return }
        undoStack.append(edits)
        if undoStack.count > 100 { undoStack.removeFirst() }
    }

    /// Undoes the last key press's tag changes by recording their inverses, newest first, so the undo is
    /// as durable as the edit.
    mutating func undo() -> [BrowserEffect] {
        guard let edits = undoStack.popLast() else { return post(.info, "Nothing to undo.") }
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        // One outbox write for the whole press, as the press itself was.
        var deltas: [TagDelta] = []
        for edit in edits.reversed() {
            let inverse = edit.inverse
            let indices = inverse.photoIDs.compactMap(library.index(ofID:)).filter { index in
                library[index].tagIDs.contains(inverse.tagID) == (inverse.change == .remove)
            }
            for case .recordTagDeltas(let recorded) in record(inverse, at: indices) { deltas += recorded }
        }
        let described = edits.count == 1
            ? describe(edits[0], tagName: tags.tag(id: edits[0].tagID)?.name ?? "tag \(edits[0].tagID)")
            : "\(edits.count) tag changes."
        return (deltas.isEmpty ? [] : [.recordTagDeltas(deltas)]) + post(.info, "Undone: \(described)")
    }

    /// Shows the edit at once and asks for its deltas to be written to the outbox.
    mutating func record(_ edit: TagEdit, at indices: [Int]) -> [BrowserEffect] {
        guard !indices.isEmpty else { return [] }
        var deltas: [TagDelta] = []
        deltas.reserveCapacity(indices.count)
        for index in indices {
            let photo = library[index]
            let delta = TagDelta(sequence: nextSequence, photoID: photo.id, tagID: edit.tagID, change: edit.change)
            nextSequence += 1
            let updated = delta.applied(to: photo.tagIDs)
            tags.recount(from: photo.tagIDs, to: updated)
            library.setTagIDs(updated, at: index)
            pendingDeltas[photo.id, default: []].append(delta)
            deltas.append(delta)
        }
        return [.recordTagDeltas(deltas)]
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
        let remaining = removePendingDeltas(of: photoID) { sent.contains($0.sequence) }
        if let index = library.index(ofID: photoID) {
            // The server's set now includes changes made elsewhere; edits still queued go on top of it.
            let shown = remaining.reduce(serverTagIDs) { $1.applied(to: $0) }
            tags.recount(from: library[index].tagIDs, to: shown)
            library.setTagIDs(shown, at: index)
        }
        return noteReplay(sequences, rejected: false)
    }

    mutating func deltasRejected(photoID: Int, sequences: [Int64], reason: String) -> [BrowserEffect] {
        let rejected = Set(sequences)
        revert((pendingDeltas[photoID] ?? []).filter { rejected.contains($0.sequence) }, of: photoID)
        let name = library.index(ofID: photoID).map { library[$0].filename } ?? "photo \(photoID)"
        return post(.error, "Could not change the tags of \(name): \(reason) The change was undone.")
            + noteReplay(sequences, rejected: true)
    }

    /// Takes deltas off the screen: each is reverted, then later unsent ones on the same tag are made again.
    private mutating func revert(_ deltas: [TagDelta], of photoID: Int) {
        let removed = Set(deltas.map(\.sequence))
        let remaining = removePendingDeltas(of: photoID) { removed.contains($0.sequence) }
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

    /// Drops the unsent deltas of `photoID` that `isRemoved` picks, forgetting the photo when none are
    /// left, and returns the ones that remain, oldest first.
    @discardableResult
    private mutating func removePendingDeltas(of photoID: Int, where isRemoved: (TagDelta) -> Bool) -> [TagDelta] {
        let remaining = (pendingDeltas[photoID] ?? []).filter { !isRemoved($0) }
        pendingDeltas[photoID] = remaining.isEmpty ? nil : remaining
        return remaining
    }

    /// Counts edits from the last session as they are sent, and reports once all are.
    private mutating func noteReplay(_ sequences: [Int64], rejected: Bool) -> [BrowserEffect] {
        guard var replay else { return [] }
        let before = replay.remaining.count
        replay.remaining.subtract(sequences)
        let settled = before - replay.remaining.count
        if rejected { replay.rejected += settled } else { replay.sent += settled }
        self.replay = replay.remaining.isEmpty ? nil : replay
        guard replay.remaining.isEmpty else { return [] }
        let sent = "Sent \(replay.sent) tag edit\(replay.sent == 1 ? "" : "s") left from the last session"
        return replay.rejected == 0
            ? post(.info, sent + ".")
            : post(.warning, sent + "; \(replay.rejected) could not be applied.")
    }

    func describe(_ edit: TagEdit, tagName: String) -> String {
        let count = edit.photoIDs.count
        let photos = count == 1 ? "1 photo" : "\(count.formatted()) photos"
        return edit.change == .add ? "Tagged \(photos) “\(tagName)”." : "Removed “\(tagName)” from \(photos)."
    }

    // MARK: - Managing tags

    mutating func requestTagCreation(name: String, color: String?, applyTo photoIDs: [Int]) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagManagement) { return post(.warning, reason) }
        guard let name = Self.tagName(name) else { return post(.warning, Self.unnamedTag) }
        if let problem = Self.colourProblem(color) { return post(.warning, problem) }
        if !photoIDs.isEmpty { tagsToApply[PhotoPickKit.Tag.nameKey(name)] = photoIDs }
        return [.createTag(name: name, color: color)]
    }

    mutating func requestTagRename(id: Int, name: String) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagManagement) { return post(.warning, reason) }
        guard let name = Self.tagName(name) else { return post(.warning, Self.unnamedTag) }
        return [.renameTag(id: id, name: name)]
    }

    mutating func requestTagRecolour(id: Int, color: String?) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagManagement) { return post(.warning, reason) }
        if let problem = Self.colourProblem(color) { return post(.warning, problem) }
        return [.recolourTag(id: id, color: color)]
    }

    private static let unnamedTag = "A tag needs a name; type one and press Enter."

    /// A typed tag name without its surrounding blanks, or nil when nothing is left.
    private static func tagName(_ typed: String) -> String? {
        let name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        return name.isEmpty ? nil : name
    }

    /// Why a typed colour is refused, or nil for none or a valid `#rrggbb`.
    private static func colourProblem(_ color: String?) -> String? {
        guard let color, TagColor(hex: color) == nil else { return nil }
        return "“\(color)” is not a colour; use #rrggbb, like #e94b60."
    }

    mutating func requestTagDeletion(id: Int) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagManagement) { return post(.warning, reason) }
        return [.deleteTag(id: id)]
    }

    /// A tag the server made or changed; a new one goes onto the photos it was created for.
    mutating func tagSaved(_ tag: PhotoPickKit.Tag) -> [BrowserEffect] {
        let isNew = tags.tag(id: tag.id) == nil
        tags.upsert(tag)
        if let mark = tags.mark(ofTag: tag.id) {
            // A mark's tag made from the tag picker is a mark too: it replaces its sibling on the photos.
            let fromPicker = isNew ? tagsToApply.removeValue(forKey: PhotoPickKit.Tag.nameKey(tag.name)) : nil
            let waiting = marksToApply.removeValue(forKey: mark)
            if waiting != nil || fromPicker != nil {
                return tagsChanged() + markCreated(mark, for: (waiting ?? []) + (fromPicker ?? []))
            }
        }
        let refiltered = tagsChanged()
        guard isNew, let photoIDs = tagsToApply.removeValue(forKey: PhotoPickKit.Tag.nameKey(tag.name)) else {
            return refiltered + post(.info, isNew ? "Created the tag “\(tag.name)”." : "Saved the tag “\(tag.name)”.")
        }
        if let reason = account.disabledReason(.tagging) { return refiltered + post(.warning, "Created the tag “\(tag.name)”. \(reason)") }
        let changing = photoIDs.compactMap(library.index(ofID:)).filter { !library[$0].tagIDs.contains(tag.id) }
        guard !changing.isEmpty else { return post(.info, "Created the tag “\(tag.name)”.") }
        let edit = TagEdit(tagID: tag.id, change: .add, photoIDs: changing.map { library[$0].id })
        remember([edit])
        return refiltered + record(edit, at: changing) + post(.info, "Created the tag “\(tag.name)”. " + describe(edit, tagName: tag.name))
    }

    /// The server removed the tag from every photo; so does photopick, including edits not yet sent.
    mutating func tagDeleted(_ id: Int) -> [BrowserEffect] {
        let name = tags.tag(id: id)?.name ?? "tag \(id)"
        tags.remove(id: id)
        let photos = library.removeTagEverywhere(id)
        for (photoID, deltas) in pendingDeltas where deltas.contains(where: { $0.tagID == id }) {
            removePendingDeltas(of: photoID) { $0.tagID == id }
        }
        undoStack = undoStack.map { $0.filter { $0.tagID != id } }.filter { !$0.isEmpty }
        return [.discardTagDeltas(tagID: id)] + tagsChanged() + post(.info, "Deleted the tag “\(name)”; it was on \(photos.formatted()) loaded photos.")
    }
}
