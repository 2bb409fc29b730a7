import GRDB

extension TagOutbox {
    /// Folds an outbox written one row per toggle into one row per photo and tag (the newest wins, as a
    /// replay of them all would end), makes that the rule, and adds the tags waiting to be created.
    static func foldMigration(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE tag_creation (
                placeholder INTEGER PRIMARY KEY,
                library TEXT NOT NULL,
                name TEXT NOT NULL,
                color TEXT,
                tag_id INTEGER
            );
            DELETE FROM tag_delta WHERE sequence NOT IN (
                SELECT MAX(sequence) FROM tag_delta GROUP BY library, photo_id, tag_id
            );
            CREATE UNIQUE INDEX tag_delta_fold ON tag_delta (library, photo_id, tag_id);
            """)
    }
}
