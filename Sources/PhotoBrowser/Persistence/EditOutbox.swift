import Foundation
import GRDB
import PhotoPickKit

/// Photo edits (file name, title, description, capture time) not yet confirmed by the server, written
/// before anything is sent. One row per photo and field, the latest wish: a field edited twice before it
/// is sent is sent once, with the second value, and keeps the value the user saw before the first.
struct EditOutbox: Sendable {
    let database: StateDatabase
    let library: String

    /// Its table.
    static let table = OutboxTable(name: "photo_edit", columns: "sequence, photo_id, field, value, seen")

    /// Stores the edits in one transaction: a rename of 10,000 photos is one write.
    func record(_ edits: [PhotoEdit]) throws {
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT INTO photo_edit (sequence, library, photo_id, field, value, seen) VALUES (?, ?, ?, ?, ?, ?)
                ON CONFLICT (library, photo_id, field) DO UPDATE SET sequence = excluded.sequence, value = excluded.value
                """)
            for edit in edits {
                try statement.execute(arguments: [edit.sequence, library, edit.photoID, edit.field.rawValue, edit.value, edit.seen])
            }
        }
    }

    /// Every edit of `library`, oldest first.
    static func all(_ db: Database, library: String) throws -> [PhotoEdit] {
        var edits: [PhotoEdit] = []
        let rows = try table.all(db, library: library)
        while let row = try rows.next() {
            if let edit = edit(row) { edits.append(edit) }
        }
        return edits
    }

    /// The edits of the `photos` photos that have waited longest, oldest first.
    func nextBatch(photos: Int) throws -> [PhotoEdit] {
        try database.queue.read { db in try Self.table.nextBatch(db, library: library, photos: photos).compactMap(Self.edit) }
    }

    /// Drops sent edits, in one transaction with what they wrote: a later wish for the same field, made
    /// while they were on their way, now counts the written value as the one the user saw, so the user's
    /// own edit is not taken for a change made elsewhere.
    func settle(_ sent: [PhotoEdit], written photo: Photo) throws {
        try database.queue.write { db in
            try Self.table.remove(db, sequences: sent.map(\.sequence))
            let rebase = try db.cachedStatement(sql: "UPDATE photo_edit SET seen = ? WHERE library = ? AND photo_id = ? AND field = ?")
            for edit in sent {
                try rebase.execute(arguments: [edit.field.value(of: photo), library, edit.photoID, edit.field.rawValue])
            }
        }
    }

    /// Drops sent edits. One replaced by a later wish meanwhile has another sequence, and stays.
    func remove(_ sequences: [Int64]) throws {
        guard !sequences.isEmpty else { return }
        try database.queue.write { db in try Self.table.remove(db, sequences: sequences) }
    }

    /// Drops the edits of photos deleted from the server.
    func removeAll(photoIDs: [Int]) throws {
        try database.queue.write { db in try Self.table.removeAll(db, library: library, photoIDs: photoIDs) }
    }

    static func migrate(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE photo_edit (
                sequence INTEGER PRIMARY KEY,
                library TEXT NOT NULL,
                photo_id INTEGER NOT NULL,
                field TEXT NOT NULL CHECK (field IN ('filename', 'title', 'description', 'takenAt')),
                value TEXT,
                seen TEXT,
                UNIQUE (library, photo_id, field)
            );
            """)
    }

    private static func edit(_ row: Row) -> PhotoEdit? {
        guard let field = PhotoField(rawValue: row[2]) else { return nil }
        return PhotoEdit(sequence: row[0], photoID: row[1], field: field, value: row[3], seen: row[4])
    }
}
