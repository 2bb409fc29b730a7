extension BrowserState {
    mutating func toggleCurrent(advance: Bool) -> [BrowserEffect] {
        guard let index = list.currentIndex else { return [] }
        endVisualRange()
        selection.set(index, !selection.contains(index), bytes: library[index].bytes)
        if advance { list.move(.down) }
        return []
    }

    mutating func toggleVisualRange() -> [BrowserEffect] {
        if visualRange != nil {
            endVisualRange()
            return []
        }
        guard list.currentIndex != nil else { return [] }
        let anchor = list.libraryIndex(at: list.cursor)
        visualRange = VisualRange(anchor: list.cursor, anchorIndex: anchor, base: selection, covered: list.cursor...list.cursor)
        selection.set(anchor, true, bytes: library[anchor].bytes)
        return post(.info, "Visual range: move to extend, v to keep, Esc to cancel.")
    }

    mutating func cancelVisualRange() -> [BrowserEffect] {
        guard let range = visualRange else { return [] }
        selection = range.base
        visualRange = nil
        return []
    }

    /// Ends a visual range and keeps what it selected.
    mutating func endVisualRange() {
        visualRange = nil
    }

    /// Photos arriving mid-range shift positions: the range is selected afresh from its anchor's new
    /// position to the cursor's.
    mutating func reanchorVisualRange() {
        guard var range = visualRange, let anchor = list.position(of: range.anchorIndex, library: library) else { return }
        selection = range.base
        selection.set(range.anchorIndex, true, bytes: library[range.anchorIndex].bytes)
        range.anchor = anchor
        range.covered = anchor...anchor
        visualRange = range
        extendVisualRange()
    }

    /// Brings the selection in line with the range from the anchor to the cursor. Only the positions
    /// that entered or left the range are touched, so a one-row move costs O(1).
    mutating func extendVisualRange() {
        guard var range = visualRange else { return }
        let covered = min(range.anchor, list.cursor)...max(range.anchor, list.cursor)
        for part in Self.positions(in: range.covered, outside: covered) {
            for position in part where position < list.count {
                let index = list.libraryIndex(at: position)
                selection.set(index, range.base.contains(index), bytes: library[index].bytes)
            }
        }
        for part in Self.positions(in: covered, outside: range.covered) {
            for position in part {
                let index = list.libraryIndex(at: position)
                selection.set(index, true, bytes: library[index].bytes)
            }
        }
        range.covered = covered
        visualRange = range
    }

    /// The positions of `range` that `other` does not cover: up to two runs.
    static func positions(in range: ClosedRange<Int>, outside other: ClosedRange<Int>) -> [Range<Int>] {
        let below = range.lowerBound..<max(range.lowerBound, min(other.lowerBound, range.upperBound + 1))
        let aboveStart = min(max(other.upperBound + 1, range.lowerBound), range.upperBound + 1)
        return [below, aboveStart..<(range.upperBound + 1)].filter { !$0.isEmpty }
    }

    mutating func selectAllMatching() -> [BrowserEffect] {
        endVisualRange()
        for index in list.libraryIndices { selection.set(index, true, bytes: library[index].bytes) }
        return []
    }

    /// Inverts the selection among the photos the filter shows; hidden ones keep their state.
    mutating func invertSelection() -> [BrowserEffect] {
        endVisualRange()
        for index in list.libraryIndices { selection.set(index, !selection.contains(index), bytes: library[index].bytes) }
        return []
    }

    mutating func clearSelection() -> [BrowserEffect] {
        endVisualRange()
        selection.removeAll()
        return []
    }
}
