import Foundation
import GRDB
import NIOConcurrencyHelpers

/// photopick's own state, kept between runs: the tag-edit outbox, the download queue and the library
/// last opened at each address, in one SQLite file under `$XDG_STATE_HOME/photopick`. Every row names
/// its library, so a demo and a real account (or two accounts) never see each other's edits.
final class StateDatabase: Sendable {
    let queue: DatabaseQueue

    /// The databases open in this process, by file, for as long as someone holds them.
    private static let open = NIOLockedValueBox<[String: Held]>([:])

    private struct Held {
        weak var database: StateDatabase?
    }

    /// The state database in `directory`, shared: GRDB asks for one connection per file in a process, and
    /// a start used to open it three times (the library last opened here, the session, the confirmation).
    /// Opened when no one in this process holds it.
    static func opened(in directory: URL) throws -> StateDatabase {
        let path = directory.standardizedFileURL.appendingPathComponent("state.sqlite").path
        return try open.withLockedValue { open in
            if let database = open[path]?.database { return database }
            let database = try StateDatabase(directory: directory)
            open = open.filter { $0.value.database != nil }
            open[path] = Held(database: database)
            return database
        }
    }

    /// Opens (creating it when missing) `state.sqlite` in `directory`, a folder only the user can read: a
    /// connection of its own, as another process would have.
    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        queue = try Self.open(directory.appendingPathComponent("state.sqlite"))
        try Self.migrator.migrate(queue)
    }

    /// Opens an SQLite file of photopick's: WAL with NORMAL sync survives a crash or kill (only power
    /// loss can lose the last commit) and commits without waiting for the disk, which keeps a
    /// 10,000-photo tag edit or a page of the catalogue quick.
    static func open(_ url: URL) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL")
        }
        return try DatabaseQueue(path: url.path, configuration: configuration)
    }

    private static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE tag_delta (
                    sequence INTEGER PRIMARY KEY,
                    library TEXT NOT NULL,
                    photo_id INTEGER NOT NULL,
                    tag_id INTEGER NOT NULL,
                    change TEXT NOT NULL CHECK (change IN ('add', 'remove'))
                );
                CREATE INDEX tag_delta_photo ON tag_delta (library, photo_id);
                CREATE TABLE download (
                    id INTEGER PRIMARY KEY,
                    library TEXT NOT NULL,
                    photo_id INTEGER NOT NULL,
                    variant TEXT NOT NULL,
                    directory TEXT NOT NULL,
                    filename TEXT NOT NULL,
                    photo_bytes INTEGER NOT NULL,
                    taken_at REAL,
                    mime_type TEXT,
                    estimated_bytes INTEGER NOT NULL,
                    status TEXT NOT NULL,
                    failure TEXT,
                    received_bytes INTEGER NOT NULL DEFAULT 0,
                    total_bytes INTEGER,
                    result_path TEXT,
                    UNIQUE (library, photo_id, variant)
                );
                """)
        }
        // Every file photopick wrote, with what it wrote: the proof that a file is its own to delete.
        migrator.registerMigration("downloads-written-files") { db in
            try db.execute(sql: """
                CREATE TABLE written_file (
                    library TEXT NOT NULL,
                    path TEXT NOT NULL,
                    photo_id INTEGER NOT NULL,
                    variant TEXT NOT NULL,
                    length INTEGER NOT NULL,
                    sha256 TEXT NOT NULL,
                    device INTEGER NOT NULL,
                    inode INTEGER NOT NULL,
                    written_at REAL NOT NULL,
                    PRIMARY KEY (library, path)
                );
                """)
        }
        // One outbox row per photo and tag, and the tags its rows wait for (`TagOutbox+Migration.swift`).
        migrator.registerMigration("tags-folded-outbox", migrate: TagOutbox.foldMigration)
        // The folder a script asked for, above a template's folders.
        migrator.registerMigration("downloads-root") { db in
            try db.execute(sql: "ALTER TABLE download ADD COLUMN root TEXT")
        }
        // The stat of a written file when its bytes last hashed to the record (`FileStamp`): length, device
        // and inode are the record's own, so only the two times are new.
        migrator.registerMigration("written-files-verified-stamp") { db in
            try db.execute(sql: """
                ALTER TABLE written_file ADD COLUMN verified_mtime_ns INTEGER;
                ALTER TABLE written_file ADD COLUMN verified_ctime_ns INTEGER;
                """)
        }
        // The library last opened at each API address, shown before the server confirms it (`KnownLibraries`).
        migrator.registerMigration("known-libraries") { db in
            try db.execute(sql: "CREATE TABLE known_library (api_url TEXT PRIMARY KEY, library TEXT NOT NULL, name TEXT)")
        }
        // Photo edits not yet sent, one per photo and field (`EditOutbox`).
        migrator.registerMigration("photo-edits", migrate: EditOutbox.migrate)
        // A tag on many photos as one row (`TagOutbox+Bulk.swift`).
        migrator.registerMigration("tag-bulks", migrate: TagOutbox.bulkMigration)
        return migrator
    }
}
