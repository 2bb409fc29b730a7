/// What the user does to choose photos: one at a time, a visual range, all that match, none.
public enum SelectionEvent: Sendable {
    case selectionToggled
    /// Toggles the photo under the cursor and moves down, as space does.
    case selectionToggledAndAdvanced
    /// `v`: starts a visual range at the cursor, or keeps the one in progress.
    case visualRangeToggled
    /// Leaves a visual range, restoring the selection from before it.
    case visualRangeCancelled
    case allMatchingSelected
    case selectionInverted
    case selectionCleared
}

/// The chosen photos and the visual range being swept. Its own room because tags, downloads and purges
/// act on the selection, and only this changes it.
struct Selecting: Sendable {
    /// The chosen photos.
    private(set) var selection = Selection()
    /// The visual range in progress, if any.
    private(set) var visualRange: VisualRange?

    /// The list positions a visual range covers, from its anchor to `cursor`; nil outside one.
    func visualPositions(cursor: Int) -> ClosedRange<Int>? {
        visualRange.map { min($0.anchor, cursor)...max($0.anchor, cursor) }
    }

    /// Applies a selection event against the list as it is shown (`list`).
    mutating func reduce(_ event: SelectionEvent, _ shared: inout Shared, list: PhotoList) -> [BrowserEffect] {
        let library = shared.library
        switch event {
        case .selectionToggled, .selectionToggledAndAdvanced:
            guard let index = list.currentIndex else { return [] }
            visualRange = nil
            selection.set(index, !selection.contains(index), bytes: library.bytes(at: index))
            return []
        case .visualRangeToggled:
            if visualRange != nil {
                visualRange = nil
                return []
            }
            guard list.currentIndex != nil else { return [] }
            let anchor = list.libraryIndex(at: list.cursor)
            visualRange = VisualRange(anchor: list.cursor, anchorIndex: anchor, base: selection, covered: list.cursor...list.cursor)
            selection.set(anchor, true, bytes: library.bytes(at: anchor))
            return shared.post(.info, "Visual range: move to extend, v to keep, Esc to cancel.")
        case .visualRangeCancelled:
            guard let range = visualRange else { return [] }
            selection = range.base
            visualRange = nil
            return []
        case .allMatchingSelected:
            visualRange = nil
            selection.insert(list.visibleIndices, bytes: library.columns.bytes)
            return []
        case .selectionInverted:
            // Among the photos the filter shows; hidden ones keep their state.
            visualRange = nil
            for index in list.libraryIndices { selection.set(index, !selection.contains(index), bytes: library.bytes(at: index)) }
            return []
        case .selectionCleared:
            visualRange = nil
            selection.removeAll()
            return []
        }
    }

    // MARK: - Following the list

    /// Ends a visual range and keeps what it selected: the list was sorted, filtered or restacked.
    mutating func endVisualRange() {
        visualRange = nil
    }

    /// Brings the selection in line with the range from the anchor to the cursor. Only the positions
    /// that entered or left the range are touched, so a one-row move costs O(1).
    mutating func followCursor(_ list: PhotoList, library: PhotoLibrary) {
        guard var range = visualRange else { return }
        let covered = min(range.anchor, list.cursor)...max(range.anchor, list.cursor)
        for part in Self.positions(in: range.covered, outside: covered) {
            for position in part where position < list.count {
                let index = list.libraryIndex(at: position)
                selection.set(index, range.base.contains(index), bytes: library.bytes(at: index))
            }
        }
        for part in Self.positions(in: covered, outside: range.covered) {
            for position in part {
                let index = list.libraryIndex(at: position)
                selection.set(index, true, bytes: library.bytes(at: index))
            }
        }
        range.covered = covered
        visualRange = range
    }

    /// Photos gone from the library leave the selection.
    mutating func forget(_ removed: Set<Int32>, library: PhotoLibrary) {
        for index in removed { selection.set(Int(index), false, bytes: library.bytes(at: Int(index))) }
    }

    /// Photos came, went or moved, shifting positions: a range in progress is selected afresh from its
    /// anchor's new position to the cursor's.
    mutating func reanchor(_ list: PhotoList, library: PhotoLibrary) {
        guard var range = visualRange, let anchor = list.position(of: range.anchorIndex, library: library) else { return }
        selection = range.base
        selection.set(range.anchorIndex, true, bytes: library.bytes(at: range.anchorIndex))
        range.anchor = anchor
        range.covered = anchor...anchor
        visualRange = range
        followCursor(list, library: library)
    }

    /// The positions of `range` that `other` does not cover: up to two runs.
    static func positions(in range: ClosedRange<Int>, outside other: ClosedRange<Int>) -> [Range<Int>] {
        let below = range.lowerBound..<max(range.lowerBound, min(other.lowerBound, range.upperBound + 1))
        let aboveStart = min(max(other.upperBound + 1, range.lowerBound), range.upperBound + 1)
        return [below, aboveStart..<(range.upperBound + 1)].filter { !$0.isEmpty }
    }
}
