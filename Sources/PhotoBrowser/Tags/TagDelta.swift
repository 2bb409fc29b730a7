/// Whether a tag goes on or comes off.
public enum TagChange: String, Sendable, Hashable {
    case add, remove

    var inverse: TagChange { self == .add ? .remove : .add }
}

/// One change to one photo's tags: add or remove one tag. Edits are stored and sent as deltas, never
/// as whole sets, so a change made elsewhere in the meantime survives.
package struct TagDelta: Sendable, Hashable {
    /// Adding or removing.
    package typealias Change = TagChange

    /// Order of recording, unique across the state database.
    let sequence: Int64
    /// The photo it changes.
    let photoID: Int
    /// The tag added or removed.
    let tagID: Int
    /// Adding or removing.
    let change: Change

    /// `tagIDs` with this change made; adding a tag already there, or removing one that is not, changes nothing.
    func applied(to tagIDs: [Int]) -> [Int] {
        switch change {
        case .add: tagIDs.contains(tagID) ? tagIDs : tagIDs + [tagID]
        case .remove: tagIDs.filter { $0 != tagID }
        }
    }

    func reverted(_ tagIDs: [Int]) -> [Int] {
        TagDelta(sequence: sequence, photoID: photoID, tagID: tagID, change: change.inverse).applied(to: tagIDs)
    }
}

/// What one tag key press did: one tag added to, or removed from, the photos that changed. Undo
/// enqueues its inverse.
struct TagEdit: Sendable, Hashable {
    /// The tag.
    let tagID: Int
    /// Added or removed.
    let change: TagChange
    /// The photos it changed; ones that already had (or lacked) the tag are not here.
    let photoIDs: [Int]

    var inverse: TagEdit { TagEdit(tagID: tagID, change: change.inverse, photoIDs: photoIDs) }
}
