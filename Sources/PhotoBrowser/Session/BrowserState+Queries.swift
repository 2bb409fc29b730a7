import Foundation
import PhotoPickKit

/// Questions the views and the verbs ask of the whole state, answered across the rooms.
extension BrowserState {
    /// The marks of the photo at a library index.
    func marks(at index: Int) -> PhotoMarks {
        tags.marks(of: library.tagIDs(at: index))
    }

    /// The focus score of the photo at a library index, with its place in its burst when bursts are
    /// stacked; nil until one of its renditions is measured.
    public func focusFacts(at index: Int) -> FocusFacts? {
        focusing.facts(at: index, library, list: list)
    }

    /// The photos listed now in figures: per day, camera, lens, focal length, ISO, aperture and mark,
    /// from the catalogue alone; days in `timeZone`, as `taken:` reads them.
    package func libraryStats(timeZone: TimeZone = .current) -> LibraryStats {
        LibraryStats(list.libraryIndices, library: library, tags: tags, timeZone: timeZone)
    }

    /// Where the photos listed now stand in culling: the cull header.
    package func cullSummary() -> CullSummary {
        CullSummary(list.libraryIndices, library: library, tags: tags)
    }

    /// Where the photos at these library indices stand in culling (`ls --summary`).
    package func cullSummary(of indices: [Int]) -> CullSummary {
        CullSummary(indices, library: library, tags: tags)
    }

    /// The photos at these library indices in figures (`ls --summary`, `stats`).
    package func libraryStats(of indices: [Int], timeZone: TimeZone = .current) -> LibraryStats {
        LibraryStats(indices, library: library, tags: tags, timeZone: timeZone)
    }

    /// The sharpest frame of each burst among the photos listed now.
    public func sharpestFrames() -> SharpestFrames {
        focusing.sharpestFrames(library, Focusing.Context(list: list, selection: selection, burstGap: browsing.burstGap, tags: tags))
    }

    /// The frames of the burst `index` belongs to, in capture order, whether or not bursts are stacked;
    /// nil when it is in none.
    public func burst(containing index: Int) -> [Int]? {
        browsing.burst(containing: index, library: library)
    }

    /// Of `photoIDs`, those that carry the tag named `name` (any case, made or still pending) as shown,
    /// edits not yet sent included. Read before and after an edit, it says which photos the edit
    /// changed: what a message about the edit counts.
    package func photos(_ photoIDs: [Int], carryingTagNamed name: String) -> Set<Int> {
        guard let tag = tags.tag(named: name) else { return [] }
        return Set(photoIDs.filter { id in library.index(ofID: id).map { library.has(tag.id, at: $0) } ?? false })
    }

    /// The rejected photos in the list as filtered now: what `#` offers to delete.
    public var rejectedInList: [Int] {
        guard let reject = tags.tag(named: tags.markNames.name(of: .flag(.reject))) else { return [] }
        // A rejected RAW+JPEG pair's row is both files, and both carry the mark.
        return list.libraryIndices.flatMap { list.files(of: $0, in: library) }.filter { library.has(reject.id, at: $0) }.map { library.id(at: $0) }
    }

    /// The bytes of the originals of these photos.
    public func bytes(ofPhotos ids: [Int]) -> Int64 {
        Purging.bytes(ofPhotos: ids, library)
    }

    /// Why these photos cannot be purged now, or nil: the key's scope, a purge under way, the limit.
    public func purgeProblem(_ ids: [Int]) -> String? {
        purging.problem(ids, account: account, limit: purging.limit)
    }
}
