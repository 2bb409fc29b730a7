import GRDB
import PhotoPickKit

/// The tags the outbox's deltas wait for. A creation is stored in the same transaction as the deltas
/// that name its placeholder, so a kill at any moment leaves both or neither. Once the server has made
/// the tag, the creation keeps its real id until the next start, so a delta recorded under the
/// placeholder in the meantime still lands on the real tag.
extension TagOutbox {
    /// Tags waiting to be created, oldest first.
    func pendingTags() throws -> [PendingTag] {
        try database.queue.read { db in try Self.pendingTags(db, library: library) }
    }

    static func pendingTags(_ db: Database, library: String) throws -> [PendingTag] {
        try Row.fetchAll(db, sql: "SELECT placeholder, name, color FROM tag_creation WHERE library = ? AND tag_id IS NULL ORDER BY placeholder DESC", arguments: [library])
            .map { PendingTag(placeholderID: $0[0], name: $0[1], color: $0[2]) }
    }

    /// The server made the tag, or already had one of that name: the deltas waiting for it now name it,
    /// in one transaction.
    func resolve(_ pending: PendingTag, as tagID: Int) throws {
        try database.queue.write { db in
            try db.execute(sql: "UPDATE tag_creation SET tag_id = ? WHERE placeholder = ?", arguments: [tagID, pending.placeholderID])
            try Self.rename(pending.placeholderID, to: tagID, library: library, db)
        }
    }

    /// The server refused the tag for good: it and the deltas waiting for it go; those deltas are
    /// returned, for the screen to take back.
    func discard(_ pending: PendingTag) throws -> [TagDelta] {
        try database.queue.write { db in
            let deltas = try TagOutbox.all(db, library: library).filter { $0.tagID == pending.placeholderID }
            try db.execute(sql: "DELETE FROM tag_delta WHERE library = ? AND tag_id = ?", arguments: [library, pending.placeholderID])
            try db.execute(sql: "DELETE FROM tag_bulk WHERE library = ? AND tag_id = ?", arguments: [library, pending.placeholderID])
            try db.execute(sql: "DELETE FROM tag_creation WHERE placeholder = ?", arguments: [pending.placeholderID])
            return deltas
        }
    }

    /// Moves deltas still under the placeholder of a tag already made onto it, and forgets those
    /// creations: run at the start, before any session holds a placeholder.
    func settleMadeTags() throws {
        try database.queue.write { db in
            let made = try Row.fetchAll(db, sql: "SELECT placeholder, tag_id FROM tag_creation WHERE library = ? AND tag_id IS NOT NULL", arguments: [library])
            for row in made { try Self.rename(row[0], to: row[1], library: library, db) }
            try db.execute(sql: "DELETE FROM tag_creation WHERE library = ? AND tag_id IS NOT NULL", arguments: [library])
        }
    }

    static func insert(_ pending: [PendingTag], library: String, _ db: Database) throws {
        guard !pending.isEmpty else { return }
        let statement = try db.cachedStatement(sql: "INSERT INTO tag_creation (placeholder, library, name, color) VALUES (?, ?, ?, ?) ON CONFLICT (placeholder) DO NOTHING")
        for tag in pending {
            try statement.execute(arguments: [tag.placeholderID, library, tag.name, tag.color])
            // Another process that opened the file at the same moment may hold this placeholder for
            // another name: refusing the write puts the screen back, where merging would tag wrongly.
            let stored = try String.fetchOne(db, sql: "SELECT name FROM tag_creation WHERE placeholder = ?", arguments: [tag.placeholderID])
            guard stored.map(PhotoPickKit.Tag.nameKey) == PhotoPickKit.Tag.nameKey(tag.name) else {
                throw PlaceholderTaken(name: tag.name)
            }
        }
    }

    /// A placeholder already names another pending tag.
    struct PlaceholderTaken: Error, CustomStringConvertible {
        let name: String
        var description: String { "another photopick is creating a tag under the same number as “\(name)”; try again" }
    }

    /// The real ids of the placeholders whose tags were made.
    static func madeTags(_ db: Database, placeholders: Set<Int>) throws -> [Int: Int] {
        var made: [Int: Int] = [:]
        for placeholder in placeholders {
            if let id = try Int.fetchOne(db, sql: "SELECT tag_id FROM tag_creation WHERE placeholder = ?", arguments: [placeholder]) { made[placeholder] = id }
        }
        return made
    }

    /// Rewrites a placeholder's deltas to the real id, keeping one wish per photo and tag: where a photo
    /// has both, the newer stays.
    private static func rename(_ placeholder: Int, to tagID: Int, library: String, _ db: Database) throws {
        let arguments: StatementArguments = ["library": library, "placeholder": placeholder, "tag": tagID]
        try db.execute(sql: """
            DELETE FROM tag_delta WHERE library = :library AND tag_id = :placeholder AND EXISTS (
                SELECT 1 FROM tag_delta AS other WHERE other.library = :library AND other.tag_id = :tag
                AND other.photo_id = tag_delta.photo_id AND other.sequence > tag_delta.sequence);
            DELETE FROM tag_delta WHERE library = :library AND tag_id = :tag AND EXISTS (
                SELECT 1 FROM tag_delta AS other WHERE other.library = :library AND other.tag_id = :placeholder
                AND other.photo_id = tag_delta.photo_id);
            UPDATE tag_delta SET tag_id = :tag WHERE library = :library AND tag_id = :placeholder;
            UPDATE tag_bulk SET tag_id = :tag WHERE library = :library AND tag_id = :placeholder;
            """, arguments: arguments)
    }
}
