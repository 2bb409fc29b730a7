import Foundation
import GRDB

/// What a library left in the state database: unsent tag deltas and photo edits, the tags they wait for, and the
/// download queue, with the numbers new deltas and items start from.
struct SavedState: Sendable {
    let deltas: [TagDelta]
    let bulks: [TagBulk]
    let edits: [PhotoEdit]
    let pendingTags: [PendingTag]
    let nextSequence: Int64
    let downloads: [DownloadItem]
    let nextDownloadID: Int64
}

extension StateDatabase {
    /// Reads everything `library` left, in one read, numbering new sequences from `now` on.
    func savedState(library: String, now: Date) throws -> SavedState {
        try queue.read { db in
            SavedState(
                deltas: try TagOutbox.all(db, library: library), bulks: try TagOutbox.allBulks(db, library: library), edits: try EditOutbox.all(db, library: library),
                pendingTags: try TagOutbox.pendingTags(db, library: library),
                nextSequence: TagOutbox.firstSequence(after: max(try TagOutbox.highestSequence(db), try EditOutbox.table.highestSequence(db)), now: now),
                downloads: try DownloadStore.all(db, library: library), nextDownloadID: try DownloadStore.highestID(db) + 1
            )
        }
    }
}
