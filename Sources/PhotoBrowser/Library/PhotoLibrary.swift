import PhotoPickKit

/// Every photo loaded so far, in arrival order. Photos are only ever appended (a changed one is
/// replaced in its place, a deleted one left as a gap), so an index into the library names one photo
/// for the whole session; sorting, filtering and selection all work on indices.
///
/// The photos are columns (`PhotoColumns`), their tags a set of photos per tag (`TagSets`), and every
/// order photopick offers is kept as photos change (`SortOrders`): at a million photos that is under
/// 200 bytes a photo, and a filter, a sort or a tag on every photo reads memory a column at a time. It
/// notes what each event changed (`PhotoChanges`), so the list and the selection follow without the
/// feature that changed a photo knowing of them.
public struct PhotoLibrary: Sendable {
    private(set) var columns = PhotoColumns()
    private(set) var tags = TagSets()
    /// The orders; photos replaced or removed by the event being handled are put right by `takeChanges`.
    private(set) var orders = SortOrders()
    /// Indices of photos deleted on the server; they are in no list.
    private(set) var removed = Bitset()
    private var removedCount = 0
    /// Library indices by increasing id, deleted photos included: `index(ofID:)` searches it.
    private var byID: [Int32] = []
    /// Each photo's focus score (`FocusScore`), NaN until one of its renditions is measured. Beside the
    /// photos rather than in them, so a newer copy of a photo from the server keeps its score.
    private(set) var focus: [Float] = []
    /// Focus scores the loupe took at 100%, by photo id: few (the photos looked at closely this
    /// session), and on another scale than `focus`, so kept apart and not stored.
    private(set) var fullSizeFocus: [Int: FullSizeFocus] = [:]
    /// What changed since the parent last took the changes.
    private var changes = PhotoChanges()
    /// How many times a photo changed or went (not came: that the count tells): work begun on the
    /// library as it was can tell whether it still holds.
    private(set) var changesMade = 0
    /// Photos whose place in an order changed or that went, until `takeChanges` puts the orders right.
    private var reordering: Set<Int32> = []
    /// RAW+JPEG pairs (`PhotoPairs`).
    private(set) var pairs = PhotoPairs()
    /// Photos added, changed or removed since the pairs were last put right by `takeChanges`.
    private var pairing: [Int] = []

    init() {}

    /// A library from its stored parts: a catalogue's snapshot, read without a photo at a time.
    init(columns: PhotoColumns, tags: TagSets, orders: SortOrders, removed: Bitset, focus: [Float]) {
        self.columns = columns
        self.tags = tags
        self.orders = orders
        self.removed = removed
        removedCount = removed.count
        self.focus = focus
        byID = Array(0..<Int32(columns.count))
        if !columns.ids.indices.dropFirst().allSatisfy({ columns.ids[$0 - 1] < columns.ids[$0] }) {
            byID.sort { columns.ids[Int($0)] < columns.ids[Int($1)] }
        }
        self.tags.grow(to: columns.count)
        pairs.update(0..<columns.count, columns: columns, byTime: orders[.captureTime], removed: removed)
        if columns.count > 0 { changes.addedFrom = 0 }
    }

    /// Builds a library a photo at a time and sorts it once at the end: how a catalogue of a million
    /// rows becomes a library without a million-element array of photos in between.
    struct Builder {
        private var columns = PhotoColumns()
        private var tags = TagSets()
        private var focus: [Float] = []

        init() {}

        mutating func add(_ photo: Photo, focus score: Double?) {
            let index = columns.count
            columns.append(photo)
            focus.append(score.map(Float.init) ?? .nan)
            tags.grow(to: index + 1)
            for tagID in photo.tagIDs { tags.set(tagID, index, true) }
        }

        /// The library, every order sorted.
        mutating func finish() -> PhotoLibrary {
            columns.compact()
            let orders = SortOrders(columns, removed: Bitset())
            return PhotoLibrary(columns: columns, tags: tags, orders: orders, removed: Bitset(), focus: focus.compacted())
        }
    }

    /// How many photos there are, the deleted ones left out.
    public var count: Int { columns.count - removedCount }

    /// How many indices there are, deleted photos included.
    var storedCount: Int { columns.count }

    /// Whether the photo at an index was deleted on the server.
    func isRemoved(_ index: Int) -> Bool { removed.contains(index) }

    /// The library index of the photo with this id, if loaded and not deleted.
    public func index(ofID id: Int) -> Int? {
        // The column taken once: read through `columns` at every step, an unoptimised build copies the
        // whole struct each time.
        let ids = columns.ids
        var low = 0, high = byID.count
        while low < high {
            let middle = (low + high) / 2
            if ids[Int(byID[middle])] < id { low = middle + 1 } else { high = middle }
        }
        guard low < byID.count, ids[Int(byID[low])] == id, !removed.contains(Int(byID[low])) else { return nil }
        return Int(byID[low])
    }

    /// The photo with every field, as the server sent it (tags as photopick shows them).
    public func photo(at index: Int) -> Photo {
        columns.photo(at: index, tagIDs: tags.tags(of: index))
    }

    /// The id of the photo at an index: what most callers want, without building the whole `Photo`.
    public func id(at index: Int) -> Int { columns.ids[index] }

    /// The tags of the photo at an index, by increasing id.
    public func tagIDs(at index: Int) -> [Int] { tags.tags(of: index) }

    /// Whether the photo at an index carries a tag.
    func has(_ tagID: Int, at index: Int) -> Bool { tags.contains(tagID, index) }

    /// The size of the original of the photo at an index.
    func bytes(at index: Int) -> Int64 { columns.bytes[index] }

    /// The server's filename of the photo at an index, unsanitised.
    func filename(at index: Int) -> String { columns.filenames.string(index) }

    /// The library index of the other file of the RAW+JPEG pair the photo at `index` is in, if any.
    package func pairPartner(of index: Int) -> Int? { pairs.partner(of: index) }

    /// How many loaded photos carry a tag.
    public func count(ofTag tagID: Int) -> Int { tags.count(of: tagID) }

    /// Appends the photos not loaded yet and returns the indices they got.
    @discardableResult
    mutating func append(_ newPhotos: [Photo]) -> Range<Int> {
        let start = columns.count
        for photo in newPhotos where index(ofID: photo.id) == nil {
            let index = columns.count
            columns.append(photo)
            focus.append(.nan)
            tags.grow(to: columns.count)
            for tagID in photo.tagIDs { tags.set(tagID, index, true) }
            insertID(index)
        }
        guard start < columns.count else { return start..<start }
        orders.insert(Array(start..<columns.count), columns)
        pairing += start..<columns.count
        if changes.addedFrom == nil { changes.addedFrom = start }
        return start..<columns.count
    }

    private mutating func insertID(_ index: Int) {
        let id = columns.ids[index]
        if let last = byID.last, columns.ids[Int(last)] > id {
            var low = 0, high = byID.count
            while low < high {
                let middle = (low + high) / 2
                if columns.ids[Int(byID[middle])] < id { low = middle + 1 } else { high = middle }
            }
            byID.insert(Int32(index), at: low)
        } else {
            byID.append(Int32(index))
        }
    }

    /// Puts a newer copy of a loaded photo in its place; the list moves it where it now belongs.
    mutating func replace(at index: Int, with photo: Photo) {
        let moves = !Self.same(columns.takenAt[index], photo.takenAt?.timeIntervalSince1970) || columns.bytes[index] != photo.bytes
            || !columns.filenames.withBytes(index) { $0.elementsEqual(photo.filename.utf8) }
        columns.replace(index, with: photo)
        setTagIDs(photo.tagIDs, at: index)
        if moves { reordering.insert(Int32(index)) }
        // A new name, time or camera may make or break a pair.
        pairing.append(index)
        changes.replace(index)
        changesMade += 1
    }

    private static func same(_ stored: Double, _ new: Double?) -> Bool {
        guard let new else { return stored.isNaN }
        return stored == new
    }

    /// Takes a photo deleted on the server out: its index stays taken, its id is forgotten.
    mutating func remove(at index: Int) {
        guard removed.insert(index) else { return }
        removedCount += 1
        tags.removePhoto(index)
        columns.forget(index)
        reordering.insert(Int32(index))
        pairing.append(index)
        changes.removed.insert(Int32(index))
        changesMade += 1
    }

    /// Brings the orders up to date with the photos replaced and removed since the last time: one pass
    /// over each order for a whole page of changes.
    private mutating func reorder() {
        guard !reordering.isEmpty else { return }
        orders.remove(reordering)
        let removed = removed
        orders.insert(reordering.map(Int.init).filter { !removed.contains($0) }.sorted(), columns)
        reordering = []
    }

    /// What changed since the last time, which starts afresh.
    mutating func takeChanges() -> PhotoChanges {
        reorder()
        if !pairing.isEmpty {
            // Only by photos coming, changing or going: the list follows those already.
            pairs.update(Set(pairing), columns: columns, byTime: orders[.captureTime], removed: removed)
            pairing = []
        }
        defer { changes = PhotoChanges() }
        var taken = changes
        taken.count = columns.count
        return taken
    }

    /// Gives back the room the columns keep for growth: after a walk, a library of a million photos
    /// drops a fifth of its size.
    mutating func compact() {
        columns.compact()
        orders.compact()
        pairs.compact()
        changes.isCompacted = true
        byID = byID.compacted()
        focus = focus.compacted()
    }

    /// The focus score of the photo at an index, if measured.
    func focusScore(at index: Int) -> Double? {
        focus[index].isNaN ? nil : Double(focus[index])
    }

    /// Keeps a measured focus score unless it is within 10% of the one kept (renditions of one picture
    /// agree that closely); true when it was kept.
    @discardableResult
    mutating func setFocusScore(_ score: Double, at index: Int) -> Bool {
        let old = focus[index]
        guard old.isNaN || abs(Double(old) - score) > 0.1 * Double(old) else { return false }
        focus[index] = Float(score)
        changes.isFocusChanged = true
        return true
    }

    /// The focus score the loupe last took of a photo at 100%, if any.
    func fullSizeFocus(ofID photoID: Int) -> FullSizeFocus? {
        fullSizeFocus[photoID]
    }

    /// Keeps the focus score the loupe took of a photo at 100%; true when it is new.
    @discardableResult
    mutating func setFullSizeFocus(_ focus: FullSizeFocus, ofID photoID: Int) -> Bool {
        fullSizeFocus.updateValue(focus, forKey: photoID) != focus
    }

    /// Gives the photo at an index these tags.
    mutating func setTagIDs(_ tagIDs: [Int], at index: Int) {
        let wanted = Set(tagIDs)
        for tagID in tags.tags(of: index) where !wanted.contains(tagID) { tags.set(tagID, index, false) }
        for tagID in wanted { tags.set(tagID, index, true) }
    }

    /// Puts a tag on one photo or takes it off; true when that changed it.
    @discardableResult
    mutating func setTag(_ tagID: Int, at index: Int, _ carries: Bool) -> Bool {
        tags.set(tagID, index, carries)
    }

    /// Puts a tag on every photo of `photos` or takes it off them; returns those it changed.
    @discardableResult
    mutating func setTag(_ tagID: Int, on photos: Bitset, _ carries: Bool) -> Bitset {
        tags.set(tagID, on: photos, carries)
    }

    /// Puts every photo carrying the placeholder `old` under the tag `new`.
    mutating func renameTag(_ old: Int, to new: Int) {
        tags.rename(old, to: new)
    }

    /// Removes a deleted tag from every photo; returns how many photos had it.
    mutating func removeTagEverywhere(_ tagID: Int) -> Int {
        tags.removeTag(tagID)
    }

    /// The string-pool numbers of the strings that pass `test`.
    func poolIDs(where test: (String) -> Bool) -> Set<Int32> {
        columns.pool.ids(where: test)
    }
}
