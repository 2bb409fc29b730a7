/// Tag deltas recorded but not yet confirmed, per photo, at most one per tag: the latest wish, as the
/// outbox keeps them. Counts are kept as they change, since the header shows them on every frame and a
/// start may restore 100,000 of them.
struct PendingTagDeltas: Sendable {
    private var byPhoto: [Int: [TagDelta]] = [:]
    /// How many per-photo deltas wait.
    private var deltaCount = 0
    /// Bulks not yet made into deltas (`TagBulk`), oldest first.
    private(set) var bulks: [TagBulk] = []
    /// How many photo wishes wait: deltas, and the photos of bulks not made into deltas yet.
    var count: Int { deltaCount + bulks.reduce(0) { $0 + $1.remaining } }
    /// Deltas older than this came from an earlier session.
    private(set) var restoredBelow: Int64 = 0
    /// How many of those still wait.
    private(set) var restoredCount = 0

    /// Starts from what the outbox held: every delta older than `restoredBelow`.
    init(restoring deltas: [TagDelta] = [], bulks: [TagBulk] = [], below restoredBelow: Int64 = 0) {
        self.restoredBelow = restoredBelow
        byPhoto.reserveCapacity(deltas.count)
        for delta in deltas { record(delta) }
        self.bulks = bulks
    }

    /// Keeps a bulk, until the outbox makes its photos into deltas.
    mutating func record(_ bulk: TagBulk) {
        bulks.append(bulk)
    }

    /// The outbox made a bulk's photos up to `expanded` into deltas; `deltas` are those it stored (a
    /// newer toggle of a photo keeps its place).
    mutating func expand(_ sequence: Int64, to expanded: Int, deltas: [TagDelta]) {
        for delta in deltas { record(delta) }
        guard let index = bulks.firstIndex(where: { $0.sequence == sequence }) else { return }
        bulks[index].expanded = expanded
        if bulks[index].remaining <= 0 { bulks.remove(at: index) }
    }

    /// Drops bulks.
    mutating func removeBulks(where isRemoved: (TagBulk) -> Bool) {
        bulks.removeAll(where: isRemoved)
    }

    /// The bulks that wait for a photo and the deltas of it, in the order they were wished: how the photo
    /// is shown on top of the server's tags.
    func wishes(of photoID: Int) -> [TagDelta] {
        var wishes = byPhoto[photoID] ?? []
        for bulk in bulks where bulk.waits(photoID) {
            wishes.append(TagDelta(sequence: bulk.sequence, photoID: photoID, tagID: bulk.tagID, change: bulk.change))
        }
        return wishes.count > 1 ? wishes.sorted { $0.sequence < $1.sequence } : wishes
    }

    /// A photo's waiting deltas, oldest first.
    subscript(photoID: Int) -> [TagDelta]? { byPhoto[photoID] }

    /// The photos with deltas waiting.
    var photoIDs: Dictionary<Int, [TagDelta]>.Keys { byPhoto.keys }

    /// How many photos have deltas waiting.
    var photoCount: Int { byPhoto.count }

    /// Keeps `delta` as its photo's wish for its tag, in place of an earlier one.
    mutating func record(_ delta: TagDelta) {
        var deltas = byPhoto[delta.photoID] ?? []
        if let earlier = deltas.firstIndex(where: { $0.tagID == delta.tagID }) {
            forget(deltas.remove(at: earlier))
        }
        deltas.append(delta)
        deltaCount += 1
        if delta.sequence < restoredBelow { restoredCount += 1 }
        byPhoto[delta.photoID] = deltas
    }

    /// Drops the photo's deltas that `isRemoved` picks; returns the ones that remain, oldest first.
    @discardableResult
    mutating func remove(of photoID: Int, where isRemoved: (TagDelta) -> Bool) -> [TagDelta] {
        guard let deltas = byPhoto[photoID] else { return [] }
        var remaining: [TagDelta] = []
        for delta in deltas {
            if isRemoved(delta) { forget(delta) } else { remaining.append(delta) }
        }
        byPhoto[photoID] = remaining.isEmpty ? nil : remaining
        return remaining
    }

    /// Moves every delta from the placeholder to the tag the server made, keeping the newer where a
    /// photo has both, as the outbox does; returns the photos it touched.
    mutating func rename(_ placeholder: Int, to tagID: Int) -> [Int] {
        for index in bulks.indices where bulks[index].tagID == placeholder { bulks[index].tagID = tagID }
        let photos = byPhoto.compactMap { entry in entry.value.contains { $0.tagID == placeholder } ? entry.key : nil }
        for photoID in photos {
            let involved = byPhoto[photoID, default: []].filter { $0.tagID == placeholder || $0.tagID == tagID }
            guard let newest = involved.max(by: { $0.sequence < $1.sequence }) else { continue }
            remove(of: photoID) { $0.tagID == placeholder || $0.tagID == tagID }
            record(TagDelta(sequence: newest.sequence, photoID: photoID, tagID: tagID, change: newest.change))
        }
        return photos
    }

    private mutating func forget(_ delta: TagDelta) {
        deltaCount -= 1
        if delta.sequence < restoredBelow { restoredCount -= 1 }
    }
}
