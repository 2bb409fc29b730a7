import Foundation
import GRDB

/// Bulks in the outbox (`TagBulk`): one row for a tag on many photos, turned into ordinary delta rows a
/// chunk at a time, each in one transaction with the bulk's progress, so a kill at any moment leaves
/// every photo's wish in exactly one of the two places.
extension TagOutbox {
    /// Adds the bulk table, and marks the delta rows made from a bulk, which go after the user's own.
    static func bulkMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tag_bulk (
                sequence INTEGER PRIMARY KEY,
                library TEXT NOT NULL,
                tag_id INTEGER NOT NULL,
                change TEXT NOT NULL CHECK (change IN ('add', 'remove')),
                photo_ids BLOB NOT NULL,
                total INTEGER NOT NULL,
                expanded INTEGER NOT NULL DEFAULT 0
            );
            ALTER TABLE tag_delta ADD COLUMN bulk INTEGER;
            """)
    }

    /// Stores a bulk, with the tag it waits for if that is not made yet, in one transaction.
    func record(_ bulk: TagBulk, creating pending: [PendingTag] = []) throws {
        try database.queue.write { db in
            try Self.insert(pending, library: library, db)
            let made = PendingTag.isPlaceholder(bulk.tagID) ? try Self.madeTags(db, placeholders: [bulk.tagID]) : [:]
            try db.execute(
                sql: "INSERT INTO tag_bulk (sequence, library, tag_id, change, photo_ids, total, expanded) VALUES (?, ?, ?, ?, ?, ?, ?)",
                arguments: [bulk.sequence, library, made[bulk.tagID] ?? bulk.tagID, bulk.change.rawValue, Data(TagBulk.encode(bulk.photoIDs)),
                            bulk.photoIDs.count, bulk.expanded]
            )
        }
    }

    /// Every bulk of `library`, oldest first.
    static func allBulks(_ db: Database, library: String) throws -> [TagBulk] {
        try Row.fetchAll(db, sql: "SELECT \(bulkColumns) FROM tag_bulk WHERE library = ? ORDER BY sequence", arguments: [library]).compactMap(bulk)
    }

    /// The oldest bulk of `library` whose tag exists (not one waiting to be made), reading rows only until
    /// one decodes: a million photos' ids are a megabyte, and the sender asks for every 256 of them.
    static func firstBulkWithTag(_ db: Database, library: String) throws -> TagBulk? {
        let rows = try Row.fetchCursor(db, sql: "SELECT \(bulkColumns) FROM tag_bulk WHERE library = ? AND tag_id >= 0 ORDER BY sequence", arguments: [library])
        while let row = try rows.next() {
            if let bulk = bulk(row) { return bulk }
        }
        return nil
    }

    private static let bulkColumns = "sequence, tag_id, change, photo_ids, expanded"

    /// A bulk from its row; nil for one whose change or ids do not read.
    private static func bulk(_ row: Row) -> TagBulk? {
        guard let change = TagChange(rawValue: row[2]), let ids = TagBulk.decode([UInt8](row[3] as Data)) else { return nil }
        return TagBulk(sequence: row[0], tagID: row[1], change: change, photoIDs: ids, expanded: row[4])
    }

    /// Makes the next `count` photos of the oldest bulk whose tag exists into delta rows, unless a photo's
    /// row for the tag is newer (a toggle made after the bulk); returns the bulk's sequence, how far it
    /// is made now, and the deltas that were stored. Nil when no bulk waits.
    func expandNextBulk(count: Int) throws -> (bulk: Int64, expanded: Int, deltas: [TagDelta])? {
        try database.queue.write { db in
            guard let bulk = try Self.firstBulkWithTag(db, library: library) else { return nil }
            let statement = try db.cachedStatement(sql: """
                INSERT INTO tag_delta (sequence, library, photo_id, tag_id, change, bulk) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (library, photo_id, tag_id) DO UPDATE SET sequence = excluded.sequence, change = excluded.change,
                    bulk = excluded.bulk WHERE excluded.sequence > tag_delta.sequence
                """)
            var stored: [TagDelta] = []
            let deltas = bulk.deltas(from: bulk.expanded, count: count)
            for delta in deltas {
                try statement.execute(arguments: [delta.sequence, library, delta.photoID, delta.tagID, delta.change.rawValue, bulk.sequence])
                if db.changesCount > 0 { stored.append(delta) }
            }
            let expanded = bulk.expanded + deltas.count
            if expanded >= bulk.photoIDs.count {
                try db.execute(sql: "DELETE FROM tag_bulk WHERE sequence = ?", arguments: [bulk.sequence])
            } else {
                try db.execute(sql: "UPDATE tag_bulk SET expanded = ? WHERE sequence = ?", arguments: [expanded, bulk.sequence])
            }
            return (bulk.sequence, expanded, stored)
        }
    }

    /// How many sendable deltas wait (up to 64): a bulk's next chunk is made only when the last is
    /// nearly out.
    func waitingDeltas() throws -> Int {
        try database.queue.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (SELECT 1 FROM tag_delta WHERE library = ? AND tag_id >= 0 LIMIT 64)", arguments: [library]) ?? 0
        }
    }

    /// The highest sequence any bulk has taken, its whole range counted.
    static func highestBulkSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(sequence + total - 1) FROM tag_bulk") ?? 0
    }
}
