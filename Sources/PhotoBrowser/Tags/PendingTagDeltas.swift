/// Tag deltas recorded but not yet confirmed, per photo, at most one per tag: the latest wish, as the
/// outbox keeps them. Counts are kept as they change, since the header shows them on every frame and a
/// start may restore 100,000 of them.
struct PendingTagDeltas: Sendable {
    private var byPhoto: [Int: [TagDelta]] = [:]
    /// How many deltas wait.
    private(set) var count = 0
    /// Deltas older than this came from an earlier session.
    private(set) var restoredBelow: Int64 = 0
    /// How many of those still wait.
    private(set) var restoredCount = 0

    /// Starts from what the outbox held: every delta older than `restoredBelow`.
    init(restoring deltas: [TagDelta] = [], below restoredBelow: Int64 = 0) {
        self.restoredBelow = restoredBelow
        byPhoto.reserveCapacity(deltas.count)
        for delta in deltas { record(delta) }
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
        count += 1
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
        count -= 1
        if delta.sequence < restoredBelow { restoredCount -= 1 }
    }
}
