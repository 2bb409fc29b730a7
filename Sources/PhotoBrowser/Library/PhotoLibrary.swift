import PhotoPickKit

/// Every photo loaded so far, in arrival order. Photos are only ever appended, so an index into the
/// library names one photo for the whole session; sorting, filtering and selection all work on indices.
public struct PhotoLibrary: Sendable {
    private var photos: ContiguousArray<LibraryPhoto> = []
    private var indices: [Int: Int32] = [:]
    private var pool = StringPool()
    private var search = SearchIndex()

    /// How many photos are loaded.
    public var count: Int { photos.count }

    /// The photo at a library index.
    public subscript(index: Int) -> LibraryPhoto { photos[index] }

    /// The library index of the photo with this id, if loaded.
    public func index(ofID id: Int) -> Int? {
        indices[id].map(Int.init)
    }

    /// The photo with every field, as the server sent it (tags as photopick shows them).
    public func photo(at index: Int) -> Photo {
        photos[index].photo(pool: pool)
    }

    /// Appends the photos not loaded yet and returns the indices they got.
    mutating func append(_ newPhotos: [Photo]) -> Range<Int> {
        let start = photos.count
        for photo in newPhotos where indices[photo.id] == nil {
            indices[photo.id] = Int32(photos.count)
            photos.append(LibraryPhoto(photo, pool: &pool))
            search.append([photo.filename, photo.title, photo.camera?.make, photo.camera?.model, photo.lens])
        }
        return start..<photos.count
    }

    mutating func setTagIDs(_ tagIDs: [Int], at index: Int) {
        photos[index].tagIDs = tagIDs
    }

    /// Removes a deleted tag from every photo; returns how many photos had it.
    mutating func removeTagEverywhere(_ tagID: Int) -> Int {
        var removed = 0
        for index in photos.indices where photos[index].tagIDs.contains(tagID) {
            photos[index].tagIDs.removeAll { $0 == tagID }
            removed += 1
        }
        return removed
    }

    func matchesText(_ index: Int, _ query: SearchQuery) -> Bool {
        search.matches(index, query)
    }

    func string(_ id: Int32) -> String? {
        pool[id]
    }
}
