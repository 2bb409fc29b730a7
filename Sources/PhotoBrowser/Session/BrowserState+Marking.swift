import PhotoPickKit

extension BrowserState {
    /// The marks of the photo at a library index.
    func marks(at index: Int) -> PhotoMarks {
        tags.marks(of: library[index].tagIDs)
    }

    /// Puts a mark on the targets and takes its sibling off them, as one undoable edit whose deltas go
    /// to the outbox together, so each photo's change is one read-modify-write. A mark whose tag does
    /// not exist yet goes on at once under a pending tag, with its colour: the tag's creation and the
    /// mark are one outbox write, sent in that order.
    mutating func setMark(_ mark: Mark, on chosen: [Int]? = nil) -> [BrowserEffect] {
        if case .rating(let stars) = mark, stars == 0 { return clearMarks(.rating, on: chosen) }
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        let targets = chosen ?? tagTargets
        guard !targets.isEmpty else { return [] }
        if tags.tagID(of: mark) == nil {
            if let reason = account.disabledReason(.tagManagement) {
                return post(.warning, "The tag “\(tags.markNames.name(of: mark))” does not exist yet and cannot be created: \(reason)")
            }
            _ = addPendingTag(name: tags.markNames.name(of: mark), color: mark.tagColor)
        }
        return apply(mark, to: targets)
    }

    /// Takes the family's mark off the targets (`U` for flags, `0` for ratings).
    mutating func clearMarks(_ family: Mark.Family, on chosen: [Int]? = nil) -> [BrowserEffect] {
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        let targets = chosen ?? tagTargets
        guard !targets.isEmpty else { return [] }
        let edits = siblingRemovals(of: family, keeping: nil, from: targets)
        let count = Set(edits.flatMap(\.photoIDs)).count
        let what = switch family {
        case .flag: "Unflagged"
        case .rating: "Cleared the rating of"
        case .label: "Cleared the label of"
        }
        return commit(edits) + post(.info, "\(what) \(photos(count)).")
    }

    /// A label key: the label goes on, or comes off when every target already has it (Lightroom's way).
    mutating func toggleLabel(_ label: Mark.ColourLabel, on chosen: [Int]? = nil) -> [BrowserEffect] {
        let targets = chosen ?? tagTargets
        let everyTargetHasIt = !targets.isEmpty && targets.allSatisfy { marks(at: $0).label == label }
        return everyTargetHasIt ? clearMarks(.label, on: chosen) : setMark(.label(label), on: chosen)
    }

    /// A mark key on one photo, whatever is selected or under the cursor (the active photo of compare).
    mutating func mark(_ key: MarkKey, photoID: Int) -> [BrowserEffect] {
        guard let index = library.index(ofID: photoID) else { return [] }
        switch key {
        case .set(let mark): return setMark(mark, on: [index])
        case .clear(let family): return clearMarks(family, on: [index])
        case .toggleLabel(let label): return toggleLabel(label, on: [index])
        }
    }

    /// The frames of the burst `index` belongs to, in capture order, whether or not bursts are stacked;
    /// nil when it is in none.
    public func burst(containing index: Int) -> [Int]? {
        if list.stackGap == burstGap, let stack = list.stacks.stack(of: index) { return list.stacks.members(of: stack) }
        let stacks = BurstStacks(library, gap: burstGap, count: library.storedCount)
        return stacks.stack(of: index).map(stacks.members(of:))
    }

    private mutating func apply(_ mark: Mark, to targets: [Int]) -> [BrowserEffect] {
        guard let tagID = tags.tagID(of: mark) else { return [] }
        var edits = siblingRemovals(of: mark.family, keeping: tagID, from: targets)
        let adding = targets.filter { !library[$0].tagIDs.contains(tagID) }
        if !adding.isEmpty { edits.append(TagEdit(tagID: tagID, change: .add, photoIDs: adding.map { library[$0].id })) }
        return commit(edits) + post(.info, describe(mark, count: targets.count))
    }

    /// One edit per sibling tag of `family` that some target carries, removing it from those targets.
    private func siblingRemovals(of family: Mark.Family, keeping kept: Int?, from targets: [Int]) -> [TagEdit] {
        tags.tagIDs(of: family).sorted().compactMap { sibling in
            guard sibling != kept else { return nil }
            let having = targets.filter { library[$0].tagIDs.contains(sibling) }
            return having.isEmpty ? nil : TagEdit(tagID: sibling, change: .remove, photoIDs: having.map { library[$0].id })
        }
    }

    /// Records the edits, removals first, and keeps them for undo as one step.
    private mutating func commit(_ edits: [TagEdit]) -> [BrowserEffect] {
        remember(edits)
        var deltas: [TagDelta] = []
        for edit in edits {
            deltas += stage(edit, at: edit.photoIDs.compactMap(library.index(ofID:)))
        }
        return recordEffects(deltas)
    }

    private func describe(_ mark: Mark, count: Int) -> String {
        switch mark {
        case .flag(.pick): "Picked \(photos(count))."
        case .flag(.reject): "Rejected \(photos(count))."
        case .rating(let stars): "Rated \(photos(count)) \(String(repeating: "★", count: stars))."
        case .label(let label): "Labelled \(photos(count)) \(label.rawValue)."
        }
    }
}
