import GRDB

/// Tag edits not yet confirmed by the server, as deltas, written before anything is sent. After a quit,
/// a crash or a lost network, the next start finds them here and sends them.
struct TagOutbox: Sendable {
    let database: StateDatabase
    let library: String

    /// Stores deltas in one transaction; a 10,000-photo toggle is one write.
    func record(_ deltas: [TagDelta]) throws {
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: "INSERT INTO tag_delta (sequence, library, photo_id, tag_id, change) VALUES (?, ?, ?, ?, ?)")
            for delta in deltas {
                try statement.execute(arguments: [delta.sequence, library, delta.photoID, delta.tagID, delta.change.rawValue])
            }
        }
    }

    /// Every delta of `library`, oldest first.
    static func all(_ db: Database, library: String) throws -> [TagDelta] {
        try Row.fetchAll(db, sql: "SELECT * FROM tag_delta WHERE library = ? ORDER BY sequence", arguments: [library]).compactMap(delta)
    }

    /// The deltas of the `photos` photos that have waited longest, oldest first.
    func nextBatch(photos: Int) throws -> [TagDelta] {
        try database.queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM tag_delta WHERE library = ? AND photo_id IN (
                    SELECT photo_id FROM tag_delta WHERE library = ? GROUP BY photo_id ORDER BY MIN(sequence) LIMIT ?
                ) ORDER BY sequence
                """, arguments: [library, library, photos]).compactMap(Self.delta)
        }
    }

    func remove(_ sequences: [Int64]) throws {
        guard !sequences.isEmpty else { return }
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM tag_delta WHERE sequence = ?")
            for sequence in sequences { try statement.execute(arguments: [sequence]) }
        }
    }

    /// Drops the deltas of a tag that no longer exists.
    func removeAll(tagID: Int) throws {
        try database.queue.write { db in
            try db.execute(sql: "DELETE FROM tag_delta WHERE library = ? AND tag_id = ?", arguments: [library, tagID])
        }
    }

    /// The highest sequence in the whole database, so new ones never collide with another library's.
    static func highestSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM tag_delta") ?? 0
    }

    private static func delta(_ row: Row) -> TagDelta? {
        guard let change = TagDelta.Change(rawValue: row["change"]) else { return nil }
        return TagDelta(sequence: row["sequence"], photoID: row["photo_id"], tagID: row["tag_id"], change: change)
    }
}
