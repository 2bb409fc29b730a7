import PhotoPickKit

/// Culling marks: each is a tag, and a photo carries at most one of each family, so setting one takes
/// its siblings off in the same undoable press.
extension Tagging {
    /// Puts a mark on the targets and takes its sibling off them, as one undoable edit whose deltas go
    /// to the outbox together, so each photo's change is one read-modify-write. A mark whose tag does
    /// not exist yet goes on at once under a pending tag, with its colour: the tag's creation and the
    /// mark are one outbox write, sent in that order.
    mutating func setMark(_ mark: Mark, on chosen: [Int]? = nil, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if case .rating(let stars) = mark, stars == 0 { return clearMarks(.rating, on: chosen, &shared, context) }
        if let reason = context.account.disabledReason(.tagging) { return shared.post(.warning, reason) }
        let targets = chosen ?? context.targets
        guard !targets.isEmpty else { return [] }
        if tags.tagID(of: mark) == nil {
            if let reason = context.account.disabledReason(.tagManagement) {
                return shared.post(.warning, "The tag “\(tags.markNames.name(of: mark))” does not exist yet and cannot be created: \(reason)")
            }
            _ = addPendingTag(name: tags.markNames.name(of: mark), color: mark.tagColor, &shared)
        }
        return apply(mark, to: targets, &shared)
    }

    /// Takes the family's mark off the targets (`U` for flags, `0` for ratings).
    mutating func clearMarks(_ family: Mark.Family, on chosen: [Int]? = nil, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.tagging) { return shared.post(.warning, reason) }
        let targets = chosen ?? context.targets
        guard !targets.isEmpty else { return [] }
        let edits = siblingRemovals(of: family, keeping: nil, from: targets, shared.library)
        let count = shared.library.pairs.shots(Array(Set(edits.flatMap(\.photoIDs)).compactMap(shared.library.index(ofID:))))
        let what = switch family {
        case .flag: "Unflagged"
        case .rating: "Cleared the rating of"
        case .label: "Cleared the label of"
        }
        return commit(edits, &shared) + shared.post(.info, "\(what) \(Self.photos(count)).")
    }

    /// A label key: the label goes on, or comes off when every target already has it (Lightroom's way).
    mutating func toggleLabel(_ label: Mark.ColourLabel, on chosen: [Int]? = nil, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        let targets = chosen ?? context.targets
        let everyTargetHasIt = !targets.isEmpty && targets.allSatisfy { tags.marks(of: shared.library.tagIDs(at: $0)).label == label }
        return everyTargetHasIt ? clearMarks(.label, on: chosen, &shared, context) : setMark(.label(label), on: chosen, &shared, context)
    }

    /// A mark key on one photo, whatever is selected or under the cursor (the active photo of compare).
    mutating func mark(_ key: MarkKey, photoID: Int, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        guard let index = shared.library.index(ofID: photoID) else { return [] }
        // The shot shown: a RAW+JPEG pair's both files.
        let files = context.expand([index])
        switch key {
        case .set(let mark): return setMark(mark, on: files, &shared, context)
        case .clear(let family): return clearMarks(family, on: files, &shared, context)
        case .toggleLabel(let label): return toggleLabel(label, on: files, &shared, context)
        }
    }

    private mutating func apply(_ mark: Mark, to targets: [Int], _ shared: inout Shared) -> [BrowserEffect] {
        guard let tagID = tags.tagID(of: mark) else { return [] }
        var edits = siblingRemovals(of: mark.family, keeping: tagID, from: targets, shared.library)
        let adding = targets.filter { !shared.library.has(tagID, at: $0) }
        if !adding.isEmpty { edits.append(TagEdit(tagID: tagID, change: .add, photoIDs: adding.map { shared.library.id(at: $0) })) }
        return commit(edits, &shared) + shared.post(.info, Self.describe(mark, count: shared.library.pairs.shots(targets)))
    }

    /// One edit per sibling tag of `family` that some target carries, removing it from those targets.
    private func siblingRemovals(of family: Mark.Family, keeping kept: Int?, from targets: [Int], _ library: PhotoLibrary) -> [TagEdit] {
        tags.tagIDs(of: family).sorted().compactMap { sibling in
            guard sibling != kept else { return nil }
            let having = targets.filter { library.has(sibling, at: $0) }
            return having.isEmpty ? nil : TagEdit(tagID: sibling, change: .remove, photoIDs: having.map { library.id(at: $0) })
        }
    }

    /// Records the edits, removals first, and keeps them for undo as one step.
    private mutating func commit(_ edits: [TagEdit], _ shared: inout Shared) -> [BrowserEffect] {
        if !edits.isEmpty { shared.ledger.remember(.tags(edits)) }
        var deltas: [TagDelta] = []
        var bulks: [BrowserEffect] = []
        for edit in edits {
            let indices = edit.photoIDs.compactMap(shared.library.index(ofID:))
            if indices.count >= Self.bulkSize {
                bulks += record(edit, at: indices, &shared)
            } else {
                deltas += stage(edit, at: indices, &shared)
            }
        }
        return recordEffects(deltas) + bulks
    }

    private static func describe(_ mark: Mark, count: Int) -> String {
        switch mark {
        case .flag(.pick): "Picked \(photos(count))."
        case .flag(.reject): "Rejected \(photos(count))."
        case .rating(let stars): "Rated \(photos(count)) \(String(repeating: "★", count: stars))."
        case .label(let label): "Labelled \(photos(count)) \(label.rawValue)."
        }
    }
}
