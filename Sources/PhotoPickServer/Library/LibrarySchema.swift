import GRDB

/// The library's tables. Keyset pagination walks `id`, the rowid, so listing never scans.
enum LibrarySchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
                CREATE TABLE photo (
                    id INTEGER PRIMARY KEY,
                    filename TEXT NOT NULL,
                    bytes INTEGER NOT NULL,
                    taken_at INTEGER,
                    created_at INTEGER NOT NULL,
                    width INTEGER NOT NULL,
                    height INTEGER NOT NULL,
                    mime_type TEXT NOT NULL,
                    camera_make TEXT,
                    camera_model TEXT,
                    lens TEXT,
                    iso INTEGER,
                    f_number REAL,
                    exposure_time TEXT,
                    focal_length REAL,
                    latitude REAL,
                    longitude REAL,
                    title TEXT,
                    description TEXT,
                    image_seed INTEGER NOT NULL
                );
                CREATE TABLE tag (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    name TEXT NOT NULL,
                    name_key TEXT NOT NULL UNIQUE,
                    color TEXT
                );
                CREATE TABLE photo_tag (
                    photo_id INTEGER NOT NULL REFERENCES photo(id) ON DELETE CASCADE,
                    tag_id INTEGER NOT NULL REFERENCES tag(id) ON DELETE CASCADE,
                    PRIMARY KEY (photo_id, tag_id)
                ) WITHOUT ROWID;
                CREATE INDEX photo_tag_by_tag ON photo_tag(tag_id);
                CREATE TABLE image_file (
                    photo_id INTEGER NOT NULL,
                    variant TEXT NOT NULL,
                    length INTEGER NOT NULL,
                    sha256 BLOB NOT NULL,
                    PRIMARY KEY (photo_id, variant)
                ) WITHOUT ROWID;
                """)
        }
        // Fractions of a second of the capture time, for bursts; libraries made before keep whole seconds.
        migrator.registerMigration("v2 taken_ms") { db in
            try db.execute(sql: "ALTER TABLE photo ADD COLUMN taken_ms INTEGER NOT NULL DEFAULT 0")
        }
        // How each demo picture was focused, held and exposed; libraries made before are sharp.
        migrator.registerMigration("v3 image look") { db in
            try db.execute(sql: """
                ALTER TABLE photo ADD COLUMN image_defocus REAL NOT NULL DEFAULT 0;
                ALTER TABLE photo ADD COLUMN image_motion REAL NOT NULL DEFAULT 0;
                ALTER TABLE photo ADD COLUMN image_gain REAL NOT NULL DEFAULT 1;
                """)
        }
        return migrator
    }
}
