import GRDB

/// The SQL both outboxes share: rows numbered by a sequence unique across the state database, each
/// naming its library and photo, sent a few photos at a time, oldest first. Written once here; each
/// outbox says only its table, its columns and which rows may go.
struct OutboxTable: Sendable {
    /// The table.
    let name: String
    /// The columns read back, the sequence and the photo first.
    let columns: String
    /// A condition on rows that may be sent now (a tag delta waits for its tag to be made).
    var sendable = "1"
    /// What goes first, before the age of rows: false before true (a bulk's rows after the user's own).
    var priority = "0"

    /// The rows of the `photos` photos that have waited longest, oldest first. The oldest rows name the
    /// oldest photos: looking at a bounded prefix keeps this quick however long the outbox is.
    func nextBatch(_ db: Database, library: String, photos: Int) throws -> [Row] {
        try Row.fetchAll(db, sql: """
            SELECT \(columns) FROM \(name) WHERE library = ?1 AND \(sendable) AND photo_id IN (
                SELECT photo_id FROM (
                    SELECT photo_id, sequence, \(priority) AS later FROM \(name) WHERE library = ?1 AND \(sendable)
                    ORDER BY later, sequence LIMIT ?2 * 16
                ) GROUP BY photo_id ORDER BY MIN(later), MIN(sequence) LIMIT ?2
            ) ORDER BY sequence
            """, arguments: [library, photos])
    }

    /// Every row of `library`, oldest first, as a cursor: a start with 100,000 waiting rows reads them all.
    func all(_ db: Database, library: String) throws -> RowCursor {
        try Row.fetchCursor(db, sql: "SELECT \(columns) FROM \(name) WHERE library = ? ORDER BY sequence", arguments: [library])
    }

    /// Drops rows by sequence. One replaced by a later wish meanwhile has another sequence, and stays.
    func remove(_ db: Database, sequences: [Int64]) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM \(name) WHERE sequence = ?")
        for sequence in sequences { try statement.execute(arguments: [sequence]) }
    }

    /// Drops the rows of photos deleted from the server.
    func removeAll(_ db: Database, library: String, photoIDs: [Int]) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM \(name) WHERE library = ? AND photo_id = ?")
        for id in photoIDs { try statement.execute(arguments: [library, id]) }
    }

    /// The highest sequence of any library's row.
    func highestSequence(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(sequence) FROM \(name)") ?? 0
    }
}
