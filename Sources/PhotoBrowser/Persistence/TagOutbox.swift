import Foundation
import GRDB

/// Tag edits not yet confirmed by the server, written before anything is sent. It keeps the latest wish
/// per photo and tag (a later toggle replaces an earlier one, so it never holds more than photos × tags
/// rows), and the tags those wishes wait for (`TagOutbox+Creation.swift`). After a quit, a crash or a
/// lost network, the next start finds them here and sends them.
struct TagOutbox: Sendable {
    let database: StateDatabase
    let library: String

    /// Its table; a delta for a tag not made yet (a placeholder, negative) waits for it.
    /// Deltas made from a bulk go after the user's own (`TagOutbox+Bulk.swift`).
    static let table = OutboxTable(name: "tag_delta", columns: "sequence, photo_id, tag_id, change", sendable: "tag_id >= 0", priority: "bulk IS NOT NULL")

    /// Stores the tags to create and the deltas in one transaction: a 10,000-photo toggle, or a mark
    /// whose tag must first be made, is one write. A delta for a placeholder whose tag was made
    /// meanwhile is stored under the real id.
    func record(_ deltas: [TagDelta], creating pending: [PendingTag] = []) throws {
        try database.queue.write { db in
            try Self.insert(pending, library: library, db)
            let placeholders = Set(deltas.lazy.map(\.tagID).filter(PendingTag.isPlaceholder))
            let made = placeholders.isEmpty ? [:] : try Self.madeTags(db, placeholders: placeholders)
            // The latest wish wins: replaying an add then a remove of one tag is the remove alone.
            let statement = try db.cachedStatement(sql: """
                INSERT INTO tag_delta (sequence, library, photo_id, tag_id, change) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (library, photo_id, tag_id) DO UPDATE SET sequence = excluded.sequence, change = excluded.change
                """)
            for delta in deltas {
                try statement.execute(arguments: [delta.sequence, library, delta.photoID, made[delta.tagID] ?? delta.tagID, delta.change.rawValue])
            }
        }
    }

    /// Every delta of `library`, oldest first. Read by column position: a start with 100,000 waiting
    /// edits reads them all before its first frame.
    static func all(_ db: Database, library: String) throws -> [TagDelta] {
        var deltas: [TagDelta] = []
        let rows = try table.all(db, library: library)
        while let row = try rows.next() {
            if let delta = delta(row) { deltas.append(delta) }
        }
        return deltas
    }

    /// The deltas of the `photos` photos that have waited longest, oldest first; deltas for a tag not
    /// created yet wait for it.
    func nextBatch(photos: Int) throws -> [TagDelta] {
        try database.queue.read { db in try Self.table.nextBatch(db, library: library, photos: photos).compactMap(Self.delta) }
    }

    /// Drops sent deltas. One replaced by a later wish meanwhile has another sequence, and stays.
    func remove(_ sequences: [Int64]) throws {
        guard !sequences.isEmpty else { return }
        try database.queue.write { db in try Self.table.remove(db, sequences: sequences) }
    }

    /// Drops the deltas of photos deleted from the server.
    func removeAll(photoIDs: [Int]) throws {
        try database.queue.write { db in try Self.table.removeAll(db, library: library, photoIDs: photoIDs) }
    }

    private static func delta(_ row: Row) -> TagDelta? {
        TagChange(rawValue: row[3]).map { TagDelta(sequence: row[0], photoID: row[1], tagID: row[2], change: $0) }
    }

    /// Drops the deltas of a tag that no longer exists, or of a tag not created yet, with its creation.
    func removeAll(tagID: Int) throws {
        try database.queue.write { db in
            try db.execute(sql: "DELETE FROM tag_delta WHERE library = ? AND tag_id = ?", arguments: [library, tagID])
            try db.execute(sql: "DELETE FROM tag_bulk WHERE library = ? AND tag_id = ?", arguments: [library, tagID])
            try db.execute(sql: "DELETE FROM tag_creation WHERE library = ? AND placeholder = ?", arguments: [library, tagID])
        }
    }

    /// Where a session's sequences start: past every one in the database, and past the microseconds
    /// since 2020, so that a browser and a verb started at different moments on one state database
    /// count in ranges millions apart and never write the same sequence.
    static func firstSequence(after highest: Int64, now: Date) -> Int64 {
        max(highest + 1, Int64((now.timeIntervalSince1970 - 1_577_836_800) * 1_000_000))
    }

    /// The highest sequence in the whole database, placeholders included (they are negated sequences),
    /// so new ones never collide with another library's or with a tag still waiting to be made.
    static func highestSequence(_ db: Database) throws -> Int64 {
        let deltas = try table.highestSequence(db)
        let placeholders = try Int64.fetchOne(db, sql: "SELECT -MIN(placeholder) FROM tag_creation") ?? 0
        return max(deltas, placeholders, try highestBulkSequence(db))
    }
}
