/// Filtering a large library off the main actor: a key typed into the filter is on screen at once,
/// with the list as it was marked as updating, and the list the new filter lets through follows when
/// it is ready (tens of milliseconds at a million photos). A job superseded by another key is dropped.
extension PhotoList {
    /// From how many photos a new filter is worked out in the background.
    static let backgroundFiltering = 100_000

    /// Whether the list shown is the one an older filter let through, a newer one being worked out.
    package var isUpdating: Bool { filtering != nil }

    /// Takes `filter` as the one asked for and returns the work that finds what it lets through; the
    /// list stays as it is until `finish` brings the result.
    mutating func beginFiltering(_ filter: PhotoFilter, library: PhotoLibrary, selection: Selection) -> FilterJob {
        self.filter = filter
        let job = FilterJob(
            generation: (filtering?.generation ?? 0) + 1, filter: filter, sort: sort, library: library, selection: selection,
            openPairs: openPairs
        )
        filtering = job
        return job
    }

    /// Shows what a filtering job found, unless a newer one superseded it. Photos that came since it
    /// began are tested one by one; true when the library changed otherwise meanwhile, so the caller
    /// filters again.
    mutating func finish(_ result: FilterResult, library: PhotoLibrary, selection: Selection) -> Bool {
        guard let job = filtering, job.generation == result.generation else { return false }
        filtering = nil
        let anchor = currentIndex
        shownFilter = job.filter
        let order = library.orders[sort]
        if shownFilter.isEmpty {
            visible = order
        } else if sort == result.sort, result.changes == library.changesMade, result.count == library.storedCount, job.openPairs == openPairs {
            visible = result.visible
        } else {
            let matcher = shownFilter.matcher(library: library, selection: selection)
            visible = order.filter { Int($0) < result.count ? result.rows.contains(Int($0)) : matcher.matches(Int($0)) }
        }
        arrange(library: library, anchor: anchor)
        return result.changes != library.changesMade
    }
}

/// A filter to work out over a library as it was when the key was pressed.
package struct FilterJob: Sendable, Equatable {
    let generation: Int
    let filter: PhotoFilter
    let sort: SortKey
    let library: PhotoLibrary
    let selection: Selection
    /// The pairs open then: the companions of the others are folded here, off the main actor.
    let openPairs: Set<Int32>

    /// What the filter lets through, as bits and in the sort's order (closed pairs folded).
    package func run() -> FilterResult {
        let rows = filter.matcher(library: library, selection: selection).rows()
        var shown = rows
        library.pairs.fold(&shown, keepingOpen: openPairs)
        let visible = filter.isEmpty ? library.orders[sort] : library.orders[sort].filter { shown.contains(Int($0)) }
        return FilterResult(generation: generation, sort: sort, rows: rows, visible: visible, count: library.storedCount,
                            changes: library.changesMade)
    }

    package static func == (left: FilterJob, right: FilterJob) -> Bool { left.generation == right.generation }
}

/// What a filtering job found.
package struct FilterResult: Sendable {
    let generation: Int
    let sort: SortKey
    /// Every library index below `count` that passes.
    let rows: Bitset
    /// Those in `sort`'s order.
    let visible: [Int32]
    /// How many indices the library had.
    let count: Int
    /// The library's count of changes then.
    let changes: Int
}
