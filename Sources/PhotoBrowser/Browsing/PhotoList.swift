/// The list the user moves through: every loaded photo in the chosen order, the ones the filter lets
/// through, the cursor and the rows in view. Positions are places in the filtered list; the values
/// stored are library indices.
public struct PhotoList: Sendable {
    /// The order photos are listed in.
    public private(set) var sort: SortKey = .captureTime
    /// What the list lets through: the filter asked for, which the list shows once `isUpdating` ends.
    public internal(set) var filter = PhotoFilter()
    /// The filter `visible` was made with; the one asked for while a large library is filtered in the
    /// background (`PhotoList+Filtering.swift`).
    var shownFilter = PhotoFilter()
    /// The background filtering under way, if any.
    var filtering: FilterJob?
    /// The photos the filter lets through, in the library's order for `sort` (`PhotoLibrary.orders`).
    var visible: [Int32] = []
    /// The cursor's position in the filtered list.
    public private(set) var cursor = 0
    /// The first position in view.
    public private(set) var top = 0
    /// How many rows are in view.
    private(set) var pageHeight = 20
    /// Seconds between frames of a burst, when bursts are shown as stacks; nil shows every photo.
    private(set) var stackGap: Double?
    /// The bursts, when stacked.
    private(set) var stacks = BurstStacks()
    /// Stacks shown open, by their first photo's library index (stack numbers change as photos
    /// arrive): all their photos are listed.
    private var openStacks: Set<Int32> = []
    /// How many of each closed stack's photos pass the filter, by stack number (its cover stands for
    /// them all); -1 for an open stack. An array, not a dictionary by cover: a million photos fold in one pass.
    private var shownInStack: [Int32] = []
    /// RAW+JPEG pairs shown open, by their RAW's library index: both files are listed, to act on one.
    var openPairs: Set<Int32> = []

    /// How many photos the filter lets through.
    public var count: Int { visible.count }

    /// The library index of the photo at a position in the filtered list.
    public func libraryIndex(at position: Int) -> Int { Int(visible[position]) }

    /// The library index under the cursor, if the list is not empty.
    public var currentIndex: Int? {
        visible.isEmpty ? nil : Int(visible[cursor])
    }

    /// Positions in view, for a view that draws only those rows.
    public var rowsInView: Range<Int> { top..<min(top + pageHeight, visible.count) }

    /// Library indices in the filtered list, in order, as stored.
    var visibleIndices: [Int32] { visible }

    /// Library indices in the filtered list, in order.
    public var libraryIndices: some Collection<Int> { visible.lazy.map(Int.init) }

    // MARK: - Changes from outside

    /// Adds newly loaded photos where they belong; the cursor stays on its photo.
    mutating func insert(_ new: Range<Int>, library: PhotoLibrary, selection: Selection) {
        guard !new.isEmpty else { return }
        let anchor = currentIndex
        guard stackGap == nil else { return restack(library: library, selection: selection, anchor: anchor) }
        if shownFilter.isEmpty {
            // Everything passes: the library's order as it is, shared rather than copied (unless pairs fold).
            visible = library.orders[sort]
            foldPairs(library.pairs)
            return relocate(anchor, library: library)
        }
        let precedes = comparator(library)
        let matcher = shownFilter.matcher(library: library, selection: selection)
        // A new photo passes with its pair's other file, which may have been listed already.
        var wanted: [Int32] = []
        for index in new where matcher.matches(index) {
            wanted.append(Int32(index))
            if let partner = library.pairs.partner(of: index), !new.contains(partner), position(of: partner, library: library) == nil {
                wanted.append(Int32(partner))
            }
        }
        SortOrders.merge(wanted.sorted(by: precedes), into: &visible, by: precedes)
        foldPairs(library.pairs)
        relocate(anchor, library: library)
    }

    /// Takes photos out (deleted on the server), or puts changed ones back where they now belong; the
    /// cursor stays on its photo, or goes to the next one when its own is gone.
    mutating func update(removing gone: Set<Int32>, repositioning changed: [Int], library: PhotoLibrary, selection: Selection) {
        guard !gone.isEmpty || !changed.isEmpty else { return }
        let anchor = currentIndex
        guard stackGap == nil else {
            let next = anchor.flatMap { gone.contains(Int32($0)) ? nil : $0 }
            restack(library: library, selection: selection, anchor: next)
            return
        }
        if shownFilter.isEmpty {
            visible = library.orders[sort]
        } else {
            // A changed photo's pair partner moves with it: made or broken, the pair is listed anew.
            var moving = gone.union(changed.map(Int32.init))
            for index in changed { if let partner = library.pairs.partner(of: index) { moving.insert(Int32(partner)) } }
            visible.removeAll { moving.contains($0) }
            let precedes = comparator(library)
            let matcher = shownFilter.matcher(library: library, selection: selection)
            let back = moving.subtracting(gone).map(Int.init).filter(matcher.matches)
            SortOrders.merge(back.map(Int32.init).sorted(by: precedes), into: &visible, by: precedes)
        }
        foldPairs(library.pairs)
        guard let anchor, gone.contains(Int32(anchor)) else { return relocate(anchor, library: library) }
        // Its photo is gone: the cursor stays at the same place in the list, on the photo that moved up.
        clampCursor()
    }

    /// Lists the library's order itself again when everything passes, rather than a copy of an older one.
    mutating func shareOrder(_ library: PhotoLibrary) {
        if shownFilter.isEmpty, stackGap == nil, library.pairs.count == 0 { visible = library.orders[sort] }
    }

    mutating func setSort(_ sort: SortKey, library: PhotoLibrary, selection: Selection) {
        let anchor = currentIndex
        self.sort = sort
        refilter(library: library, selection: selection, anchor: anchor)
    }

    /// Applies a new filter in one pass over the loaded photos. When the photo under the cursor is
    /// filtered out, the cursor goes to the next one that is not, in sort order.
    mutating func setFilter(_ filter: PhotoFilter, library: PhotoLibrary, selection: Selection) {
        let anchor = currentIndex
        self.filter = filter
        shownFilter = filter
        filtering = nil
        refilter(library: library, selection: selection, anchor: anchor)
    }

    /// Shows bursts as stacks `gap` seconds apart at most, or every photo when `gap` is nil.
    mutating func setStacking(gap: Double?, library: PhotoLibrary, selection: Selection) {
        let anchor = currentIndex
        stackGap = gap
        openStacks = []
        restack(library: library, selection: selection, anchor: anchor)
    }

    /// Opens a closed stack or closes an open one; the cursor stays on the stack's first photo.
    mutating func toggleStack(_ stack: Int, library: PhotoLibrary, selection: Selection) {
        guard stackGap != nil else { return }
        let key = stacks.key(of: stack)
        if openStacks.remove(key) == nil { openStacks.insert(key) }
        let cover = visible.first { self.stacks.stack(of: Int($0)) == stack }.map(Int.init) ?? currentIndex
        refilter(library: library, selection: selection, anchor: cover)
    }

    /// How many photos the closed stack at `position` stands for, or nil when it is a single photo
    /// (or an open stack's).
    public func stackCount(at position: Int) -> Int? {
        guard let stack = stacks.stack(of: Int(visible[position])), stack < shownInStack.count else { return nil }
        let shown = Int(shownInStack[stack])
        return shown > 1 ? shown : nil
    }

    /// The stack of the photo at `position`, if it is in one.
    func stack(at position: Int) -> Int? {
        stackGap == nil ? nil : stacks.stack(of: Int(visible[position]))
    }

    /// Whether a stack is shown open.
    func isOpen(_ stack: Int) -> Bool {
        openStacks.contains(stacks.key(of: stack))
    }

    private mutating func restack(library: PhotoLibrary, selection: Selection, anchor: Int?) {
        stacks = stackGap.map { BurstStacks(library, gap: $0) } ?? BurstStacks()
        refilter(library: library, selection: selection, anchor: anchor)
    }

    /// The filtered list again, closed stacks folded into their first photo; the cursor stays on
    /// `anchor`, or the photo after it, or the cover of its stack.
    mutating func refilter(library: PhotoLibrary, selection: Selection, anchor: Int?) {
        let order = library.orders[sort]
        if shownFilter.isEmpty {
            visible = order
        } else {
            let rows = shownFilter.matcher(library: library, selection: selection).rows()
            visible = order.filter { rows.contains(Int($0)) }
        }
        arrange(library: library, anchor: anchor)
    }

    /// Folds closed stacks into their covers and puts the cursor on `anchor`, or the photo after it, or
    /// the cover of its stack, once `visible` holds what passes.
    mutating func arrange(library: PhotoLibrary, anchor: Int?) {
        foldPairs(library.pairs)
        shownInStack = []
        if stackGap != nil, stacks.count > 0 { foldClosedStacks() }
        guard let anchor = anchor.map({ shownIndex($0, library.pairs) }) else { return clampCursor() }
        if let stack = stacks.stack(of: anchor), !isOpen(stack),
           let cover = visible.first(where: { stacks.stack(of: Int($0)) == stack }) {
            return moveCursor(to: position(of: Int(cover), library: library))
        }
        // `visible` is sorted like the order, so its lower bound for the anchor is the anchor itself if it
        // still matches, else the next match after it; past the end, the last match comes before it.
        let bound = SortOrders.lowerBound(of: Int32(anchor), in: visible, by: comparator(library))
        moveCursor(to: visible.isEmpty ? nil : min(bound, visible.count - 1))
    }

    private mutating func foldClosedStacks() {
        var shown = [Int32](repeating: 0, count: stacks.count)
        // An open stack counts as already shown past its cover, so each of its photos is kept.
        for key in openStacks {
            if let stack = stacks.stack(of: Int(key)), stacks.key(of: stack) == key { shown[stack] = -1 }
        }
        var folded: [Int32] = []
        folded.reserveCapacity(visible.count)
        for index in visible {
            guard let stack = stacks.stack(of: Int(index)), shown[stack] >= 0 else {
                folded.append(index)
                continue
            }
            if shown[stack] == 0 { folded.append(index) }
            shown[stack] += 1
        }
        shownInStack = shown
        visible = folded
    }

    /// Sets how many rows the view shows.
    mutating func setPageHeight(_ rows: Int) {
        pageHeight = max(1, rows)
        follow()
    }

    // MARK: - Moving

    /// Moves the cursor; O(1) whatever the list's length.
    mutating func move(_ motion: CursorMotion) {
        guard !visible.isEmpty else { return }
        let half = max(1, pageHeight / 2)
        switch motion {
        case .up: cursor -= 1
        case .down: cursor += 1
        case .pageUp: cursor -= pageHeight
        case .pageDown: cursor += pageHeight
        case .halfPageUp: cursor -= half
        case .halfPageDown: cursor += half
        case .top: cursor = 0
        case .bottom: cursor = visible.count - 1
        case .position(let position): cursor = position
        }
        clampCursor()
    }

    /// The position of a photo in the filtered list, found by binary search in O(log n).
    func position(of index: Int, library: PhotoLibrary) -> Int? {
        let target = Int32(index)
        let low = SortOrders.lowerBound(of: target, in: visible, by: comparator(library))
        return low < visible.count && visible[low] == target ? low : nil
    }

    // MARK: - Internals

    private func comparator(_ library: PhotoLibrary) -> (Int32, Int32) -> Bool {
        let sort = sort, columns = library.columns
        return { sort.precedes(Int($0), Int($1), columns) }
    }

    /// Puts the cursor back on `index` after the list changed, shifting the view by as much, so the
    /// screen does not jump under the user.
    private mutating func relocate(_ index: Int?, library: PhotoLibrary) {
        let found = index.flatMap { position(of: shownIndex($0, library.pairs), library: library) }
        moveCursor(to: found)
    }

    /// Puts the cursor on `position`, if any, shifting the view by as much.
    private mutating func moveCursor(to position: Int?) {
        if let position {
            top += position - cursor
            cursor = position
        }
        clampCursor()
    }

    private mutating func clampCursor() {
        cursor = min(max(cursor, 0), max(visible.count - 1, 0))
        follow()
    }

    /// Scrolls just enough to keep the cursor in view.
    private mutating func follow() {
        if cursor < top { top = cursor }
        if cursor >= top + pageHeight { top = cursor - pageHeight + 1 }
        top = min(max(top, 0), max(visible.count - pageHeight, 0))
    }
}
