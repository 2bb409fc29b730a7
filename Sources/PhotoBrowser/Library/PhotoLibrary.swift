import PhotoPickKit

/// Every photo loaded so far, in arrival order. Photos are only ever appended (a changed one is
/// replaced in its place, a deleted one left as a gap), so an index into the library names one photo
/// for the whole session; sorting, filtering and selection all work on indices. It counts the photos
/// of each tag as tags change, and notes what each event changed (`PhotoChanges`), so the list and the
/// selection follow without the feature that changed a photo knowing of them.
public struct PhotoLibrary: Sendable {
    private var photos: ContiguousArray<LibraryPhoto> = []
    private var indices: [Int: Int32] = [:]
    private var pool = StringPool()
    private var search = SearchIndex()
    /// Indices of photos deleted on the server; they are in no list.
    private var removed: Set<Int32> = []
    /// Each photo's focus score (`FocusScore`), NaN until one of its renditions is measured. Beside the
    /// photos rather than in them, so a newer copy of a photo from the server keeps its score.
    private var focus: ContiguousArray<Float> = []
    /// Loaded photos per tag id.
    private var tagCounts: [Int: Int] = [:]
    /// What changed since the parent last took the changes.
    private var changes = PhotoChanges()

    /// How many photos there are, the deleted ones left out.
    public var count: Int { photos.count - removed.count }

    /// How many indices there are, deleted photos included.
    var storedCount: Int { photos.count }

    /// Whether the photo at an index was deleted on the server.
    func isRemoved(_ index: Int) -> Bool { removed.contains(Int32(index)) }

    /// The photo at a library index.
    subscript(index: Int) -> LibraryPhoto { photos[index] }

    /// The library index of the photo with this id, if loaded and not deleted.
    public func index(ofID id: Int) -> Int? {
        indices[id].map(Int.init)
    }

    /// The photo with every field, as the server sent it (tags as photopick shows them).
    public func photo(at index: Int) -> Photo {
        photos[index].photo(pool: pool)
    }

    /// The id of the photo at an index: what most callers want, without building the whole `Photo`.
    public func id(at index: Int) -> Int { photos[index].id }

    /// The tags of the photo at an index.
    public func tagIDs(at index: Int) -> [Int] { photos[index].tagIDs }

    /// How many loaded photos carry a tag.
    public func count(ofTag tagID: Int) -> Int { tagCounts[tagID, default: 0] }

    /// Appends the photos not loaded yet and returns the indices they got.
    @discardableResult
    mutating func append(_ newPhotos: [Photo]) -> Range<Int> {
        let start = photos.count
        for photo in newPhotos where indices[photo.id] == nil {
            indices[photo.id] = Int32(photos.count)
            photos.append(LibraryPhoto(photo, pool: &pool))
            focus.append(.nan)
            search.append(Self.searchFields(photo))
            recount(from: [], to: photo.tagIDs)
        }
        if start < photos.count, changes.addedFrom == nil { changes.addedFrom = start }
        return start..<photos.count
    }

    /// Puts a newer copy of a loaded photo in its place; the list moves it where it now belongs.
    mutating func replace(at index: Int, with photo: Photo) {
        recount(from: photos[index].tagIDs, to: photo.tagIDs)
        photos[index] = LibraryPhoto(photo, pool: &pool)
        search.replace(index, with: Self.searchFields(photo))
        changes.replace(index)
    }

    /// Takes a photo deleted on the server out: its index stays taken, its id is forgotten.
    mutating func remove(at index: Int) {
        guard removed.insert(Int32(index)).inserted else { return }
        recount(from: photos[index].tagIDs, to: [])
        indices[photos[index].id] = nil
        changes.removed.insert(Int32(index))
    }

    /// What changed since the last time, which starts afresh.
    mutating func takeChanges() -> PhotoChanges {
        defer { changes = PhotoChanges() }
        var taken = changes
        taken.count = photos.count
        return taken
    }

    private static func searchFields(_ photo: Photo) -> [String?] {
        [photo.filename, photo.title, photo.camera?.make, photo.camera?.model, photo.lens]
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

    /// Gives the photo at an index these tags; the counts follow.
    mutating func setTagIDs(_ tagIDs: [Int], at index: Int) {
        recount(from: photos[index].tagIDs, to: tagIDs)
        photos[index].tagIDs = tagIDs
    }

    /// Removes a deleted tag from every photo; returns how many photos had it.
    mutating func removeTagEverywhere(_ tagID: Int) -> Int {
        var count = 0
        for index in photos.indices where photos[index].tagIDs.contains(tagID) && !removed.contains(Int32(index)) {
            photos[index].tagIDs.removeAll { $0 == tagID }
            count += 1
        }
        tagCounts[tagID] = nil
        return count
    }

    /// Accounts for a photo's tags changing from `old` to `new`.
    private mutating func recount(from old: [Int], to new: [Int]) {
        for id in old where !new.contains(id) {
            let left = tagCounts[id, default: 0] - 1
            tagCounts[id] = left == 0 ? nil : left
        }
        for id in new where !old.contains(id) { tagCounts[id, default: 0] += 1 }
    }

    func matchesText(_ index: Int, _ query: SearchQuery) -> Bool {
        search.matches(index, query)
    }

    /// The string-pool numbers of the strings that pass `test`.
    func poolIDs(where test: (String) -> Bool) -> Set<Int32> {
        pool.ids(where: test)
    }

    func string(_ id: Int32) -> String? {
        pool[id]
    }
}

/// What one event did to the photos: the parent brings the list and the selection along with it.
struct PhotoChanges: Sendable, Equatable {
    /// The first index appended, if any: every index from it on is new.
    var addedFrom: Int?
    /// Indices replaced by a newer copy, in the order replaced, each once.
    private(set) var replaced: [Int] = []
    private var replacedSet: Set<Int> = []
    /// Indices of photos taken out.
    var removed: Set<Int32> = []
    /// Whether a focus score changed.
    var isFocusChanged = false
    /// How many indices the library had when the changes were taken.
    fileprivate(set) var count = 0

    /// The indices appended.
    var added: Range<Int> { (addedFrom ?? count)..<count }

    /// Indices to put back in their places: replaced, not added or removed meanwhile.
    var repositioned: [Int] {
        replaced.filter { index in !added.contains(index) && !removed.contains(Int32(index)) }
    }

    /// Whether any photo came, went or moved.
    var movesPhotos: Bool { !replaced.isEmpty || !removed.isEmpty || !added.isEmpty }

    fileprivate mutating func replace(_ index: Int) {
        if replacedSet.insert(index).inserted { replaced.append(index) }
    }
}
