import Foundation
import PhotoPickKit

/// What the user does to move through the library: sort, filter, stack bursts, move the cursor.
public enum BrowsingEvent: Sendable {
    case cursorMoved(CursorMotion)
    case viewResized(rows: Int)
    case sortCycled
    case sortChosen(SortKey)
    case filterTextChanged(String)
    case tagFilterChanged(TagFilter)
    case dateRangeChanged(ClosedRange<Date>?)
    case onlySelectedToggled
    case filtersCleared
    /// Shows bursts as stacks, or every photo again.
    case stackingToggled
    /// Opens the stack under the cursor, or closes the open stack it is in.
    case stackOpened
}

/// What filtering in the background found: only the session's own effects send this.
package enum BrowsingReport: Sendable {
    case listFiltered(FilterResult)
}

/// Browsing and filtering: the order, the filter, the cursor and bursts shown as stacks. A room of its
/// own because every feature reads where the user is and what is listed, and none of them changes it.
struct Browsing: Sendable {
    /// Order, filter, cursor and the rows in view.
    private(set) var list = PhotoList()
    /// Seconds between frames of one burst at most (`burst_gap`).
    let burstGap: Double
    /// The config's `[searches]`, in its order.
    let savedSearches: [SavedSearch]
    /// From how many photos a new filter is worked out in the background (`PhotoList.backgroundFiltering`).
    var backgroundFiltering = PhotoList.backgroundFiltering

    /// What the parent passes: the selection (the "only selected" filter reads it) and the tags a query
    /// names.
    struct Context {
        let selection: Selection
        let tags: TagCatalog
    }

    init(burstGap: Double, savedSearches: [SavedSearch]) {
        self.burstGap = burstGap
        self.savedSearches = savedSearches
    }

    mutating func reduce(_ event: BrowsingEvent, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch event {
        case .cursorMoved(let motion):
            list.move(motion)
            shared.news.cursorMoved = true
            return []
        case .viewResized(let rows):
            list.setPageHeight(rows)
            return []
        case .sortCycled: return setSort(list.sort.next, &shared, context)
        case .sortChosen(let sort): return setSort(sort, &shared, context)
        case .filterTextChanged(let text): return changeFilter(&shared, context) { $0.text = text }
        case .tagFilterChanged(let tags): return changeFilter(&shared, context) { $0.tags = tags }
        case .dateRangeChanged(let range): return changeFilter(&shared, context) { $0.dateRange = range }
        case .onlySelectedToggled: return changeFilter(&shared, context) { $0.onlySelected.toggle() }
        case .filtersCleared: return changeFilter(&shared, context) { $0 = PhotoFilter() }
        case .stackingToggled: return toggleStacking(&shared, context)
        case .stackOpened: return toggleCurrentStack(&shared, context)
        }
    }

    private mutating func setSort(_ sort: SortKey, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        shared.news.listReshaped = true
        list.setSort(sort, library: shared.library, selection: context.selection)
        return shared.post(.info, "Sorted by \(sort.label).")
    }

    private mutating func changeFilter(_ shared: inout Shared, _ context: Context, _ change: (inout PhotoFilter) -> Void) -> [BrowserEffect] {
        shared.news.listReshaped = true
        var filter = list.filter
        change(&filter)
        filter.tagContext = QueryTags(context.tags)
        // A large library is filtered in the background, so typing never waits for the list.
        if shared.library.storedCount >= backgroundFiltering {
            return [.filterList(list.beginFiltering(filter, library: shared.library, selection: context.selection))]
        }
        list.setFilter(filter, library: shared.library, selection: context.selection)
        return []
    }

    /// What filtering in the background reports.
    mutating func receive(_ report: BrowsingReport, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch report {
        case .listFiltered(let result):
            shared.news.listReshaped = true
            guard list.finish(result, library: shared.library, selection: context.selection) else { return [] }
            // Photos changed while it ran: once more, from the library as it is.
            return [.filterList(list.beginFiltering(list.filter, library: shared.library, selection: context.selection))]
        }
    }

    private mutating func toggleStacking(_ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        shared.news.listReshaped = true
        let gap = list.stackGap == nil ? burstGap : nil
        list.setStacking(gap: gap, library: shared.library, selection: context.selection)
        guard gap != nil else { return shared.post(.info, "Showing every photo; bursts are not stacked.") }
        let count = list.stacks.count
        return shared.post(.info, count == 0
            ? "No bursts: no photos from one camera within \(burstGap.formatted()) s of each other."
            : "Bursts stacked: \(count.formatted()) stack\(count == 1 ? "" : "s"); marks and selection on a closed stack act on its first photo.")
    }

    /// Opens the closed stack under the cursor; else opens or closes the RAW+JPEG pair it is in; else
    /// closes the open stack it is in.
    private mutating func toggleCurrentStack(_ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        guard list.count > 0 else { return [] }
        let closedStack = list.stack(at: list.cursor).map { !list.isOpen($0) } ?? false
        if !closedStack, list.togglePair(at: list.cursor, library: shared.library, selection: context.selection) {
            shared.news.listReshaped = true
            return []
        }
        guard list.stackGap != nil else { return shared.post(.info, "Bursts are not stacked, and this photo is in no RAW+JPEG pair.") }
        guard let stack = list.stack(at: list.cursor) else { return shared.post(.info, "This photo is not part of a burst.") }
        shared.news.listReshaped = true
        list.toggleStack(stack, library: shared.library, selection: context.selection)
        return []
    }

    // MARK: - Following the other features

    /// Photos came, went or changed: the list takes them in, the cursor staying on its photo.
    mutating func follow(_ changes: PhotoChanges, library: PhotoLibrary, selection: Selection) {
        list.update(removing: changes.removed, repositioning: changes.repositioned, library: library, selection: selection)
        list.insert(changes.added, library: library, selection: selection)
        if changes.isCompacted { list.shareOrder(library) }
    }

    /// The tag list changed: a query that names tags or marks is read again against it.
    mutating func tagsChanged(_ tags: TagCatalog, library: PhotoLibrary, selection: Selection) {
        guard list.filter.query.readsTags || !list.filter.unknownTags().isEmpty else { return }
        var filter = list.filter
        filter.tagContext = QueryTags(tags)
        list.setFilter(filter, library: library, selection: selection)
    }

    /// A focus score changed: a query that reads scores filters again.
    mutating func focusChanged(library: PhotoLibrary, selection: Selection) {
        if list.filter.query.readsFocus { list.setFilter(list.filter, library: library, selection: selection) }
    }

    /// The frames of the burst `index` belongs to, in capture order, whether or not bursts are stacked;
    /// nil when it is in none.
    func burst(containing index: Int, library: PhotoLibrary) -> [Int]? {
        if list.stackGap == burstGap, let stack = list.stacks.stack(of: index) { return list.stacks.members(of: stack) }
        let stacks = BurstStacks(library, gap: burstGap)
        return stacks.stack(of: index).map(stacks.members(of:))
    }
}
