import Foundation
import GRDB
import NIOConcurrencyHelpers
import PhotoPickKit
import PhotoPreviews

/// Every photo and tag of one library as last seen, in SQLite beside the state database, so a start
/// shows the whole library at once and a refresh only reconciles it with the server.
///
/// It is a cache: a file that cannot be opened or read is set aside (renamed, never deleted) and a
/// new one started, with a notice; a schema change migrates it.
package final class Catalogue: Sendable {
    let queue: DatabaseQueue
    /// The file.
    let url: URL
    /// Whether the library file is being written, and whether another write was asked for meanwhile.
    private let fileWriting = NIOLockedValueBox((running: false, again: false))

    /// What the catalogue holds when a session starts.
    package struct Snapshot: Sendable {
        /// Every photo as of the library file (or every row, without one), with the server's tags.
        var library = PhotoLibrary()
        /// Photos changed in the catalogue since the library file was written, as they are now.
        var photos: [Photo] = []
        /// Focus scores of `photos`, by photo id.
        var focusScores: [Int: Double] = [:]
        /// Photos gone from the catalogue since the library file was written.
        var gone: [Int] = []
        /// Every tag, in the server's order.
        var tags: [PhotoPickKit.Tag] = []
        /// When the last complete walk ended; nil when none has.
        var completedAt: Date?
        /// The walk in progress, to resume; nil when the last one finished (or none began).
        var walk: Walk?
        /// Whether the library file is missing or far behind the catalogue, and should be written again.
        var isLibraryFileStale = false
    }

    /// A walk over every page: photos it saw carry its generation, so when it completes, the ones it did
    /// not see are the ones deleted.
    struct Walk: Sendable, Equatable {
        /// Goes up by one with every new walk.
        var generation: Int64
        /// Where it resumes; nil for the first page.
        var cursor: String?
        /// Photos seen so far, for progress.
        var seen: Int
    }

    /// Opens the catalogue of `library` in `directory`. A damaged file is set aside (named for `now`)
    /// and the returned notice says so; the catalogue is then empty.
    static func open(library: String, directory: URL, now: Date) throws -> (Catalogue, notice: String?) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let url = directory.appending(path: "catalogue-\(PreviewDiskCache.digest(library)).sqlite")
        LibraryFile.removeLeftovers(forCatalogue: url)
        do {
            return (try Catalogue(url: url, library: library), nil)
        } catch {
            let aside = try setAside(url, reason: error, at: now)
            return (try Catalogue(url: url, library: library), notice(aside: aside, reason: error))
        }
    }

    init(url: URL, library: String) throws {
        self.url = url
        queue = try StateDatabase.open(url)
        try Self.migrator.migrate(queue)
        let owner = try queue.write { db -> String in
            try db.execute(sql: "INSERT OR IGNORE INTO library (id, name) VALUES (1, ?)", arguments: [library])
            return try String.fetchOne(db, sql: "SELECT name FROM library WHERE id = 1") ?? library
        }
        guard owner == library else { throw CatalogueDamage(reason: "it belongs to another library") }
    }

    /// Every schema the catalogue has had, in order; `DatabaseMigrator` applies the ones a file lacks.
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE library (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL);
                CREATE TABLE photo (
                    id INTEGER PRIMARY KEY, filename TEXT NOT NULL, bytes INTEGER NOT NULL, taken_at REAL, created_at REAL,
                    width INTEGER, height INTEGER, mime_type TEXT, camera_make TEXT, camera_model TEXT, lens TEXT,
                    iso INTEGER, f_number REAL, exposure_time TEXT, focal_length REAL, latitude REAL, longitude REAL,
                    title TEXT, description TEXT, extra TEXT, tag_ids TEXT NOT NULL,
                    seen_at REAL NOT NULL, walk INTEGER NOT NULL
                );
                CREATE TABLE tag (id INTEGER PRIMARY KEY, name TEXT NOT NULL, color TEXT, position INTEGER NOT NULL);
                CREATE TABLE walk (
                    id INTEGER PRIMARY KEY CHECK (id = 1), generation INTEGER NOT NULL, cursor TEXT,
                    seen INTEGER NOT NULL DEFAULT 0, in_progress INTEGER NOT NULL, completed_at REAL
                );
                """)
        }
        // The end of a walk looks for the photos it did not see.
        migrator.registerMigration("v2 photo_walk index") { db in
            try db.execute(sql: "CREATE INDEX photo_walk ON photo (walk)")
        }
        // Focus scores measured from previews; a page from the server leaves them be.
        migrator.registerMigration("v3 focus") { db in
            try db.execute(sql: "ALTER TABLE photo ADD COLUMN focus REAL")
        }
        // Every write that changes photos takes the next revision and stamps the rows it changed, and a
        // photo that goes leaves its id and revision behind: a start reads the library file
        // (`LibraryFile`) and only the rows changed since it was written. `instance` names this file, so
        // a library file written from another (one set aside) is never taken for this one's.
        migrator.registerMigration("v4 revisions") { db in
            try db.execute(sql: """
                ALTER TABLE photo ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX photo_revision ON photo (revision);
                CREATE TABLE photo_gone (id INTEGER PRIMARY KEY, revision INTEGER NOT NULL);
                CREATE TABLE revision (id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL, instance TEXT NOT NULL);
                """)
            try db.execute(sql: "INSERT INTO revision (id, value, instance) VALUES (1, 1, ?)", arguments: [UUID().uuidString])
        }
        // The cursor of a complete walk's last page: the listing is in ascending id, so new photos come
        // after it, and a refresh asks it first (`Catalogue+Walking.swift`).
        migrator.registerMigration("v5 tail cursor") { db in
            try db.execute(sql: "ALTER TABLE walk ADD COLUMN tail_cursor TEXT")
        }
        return migrator
    }

    /// Takes the next revision, for a write that changes photos: the rows it changes carry it.
    static func nextRevision(_ db: Database) throws -> Int64 {
        try db.execute(sql: "UPDATE revision SET value = value + 1 WHERE id = 1")
        return try Int64.fetchOne(db, sql: "SELECT value FROM revision WHERE id = 1") ?? 0
    }

    /// The revision the catalogue is at, and its instance.
    func revision() throws -> (value: Int64, instance: String) {
        try queue.read { db in try Self.revision(db) }
    }

    static func revision(_ db: Database) throws -> (value: Int64, instance: String) {
        guard let row = try Row.fetchOne(db, sql: "SELECT value, instance FROM revision WHERE id = 1") else { throw CatalogueDamage(reason: "it has no revision") }
        return (row["value"], row["instance"])
    }

    /// Notes photos that went, for a library file older than this write.
    static func recordGone(_ ids: [Int], revision: Int64, _ db: Database) throws {
        let statement = try db.cachedStatement(sql: "INSERT OR REPLACE INTO photo_gone (id, revision) VALUES (?, ?)")
        for id in ids { try statement.execute(arguments: [id, revision]) }
    }

    // MARK: - Reading

    /// The library file beside the catalogue.
    var libraryFile: URL { LibraryFile.url(forCatalogue: url) }

    /// Everything, for a start: the library file and the rows changed since it, or every row when there
    /// is no file this catalogue wrote. Throws `CatalogueDamage` when the catalogue turns out unreadable.
    func snapshot() throws -> Snapshot {
        do {
            let instance = try revision().instance
            let file = try? LibraryFile.read(libraryFile, instance: instance)
            return try queue.read { db in
                var snapshot = Snapshot()
                let (revision, _) = try Self.revision(db)
                if let file, file.revision <= revision {
                    snapshot.library = file.library
                    // Through the revision index: left to itself, SQLite reads every row in id order to
                    // skip a sort (150 ms at a million photos, for the usual none since).
                    let rows = try Row.fetchCursor(db, sql: "SELECT \(Self.photoColumns), focus FROM photo INDEXED BY photo_revision WHERE revision > ? ORDER BY id", arguments: [file.revision])
                    while let row = try rows.next() {
                        let photo = Self.photo(row)
                        snapshot.photos.append(photo)
                        if let focus = row["focus"] as Double? { snapshot.focusScores[photo.id] = focus }
                    }
                    snapshot.gone = try Int.fetchAll(db, sql: "SELECT id FROM photo_gone WHERE revision > ?", arguments: [file.revision])
                    let behind = snapshot.photos.count + snapshot.gone.count
                    snapshot.isLibraryFileStale = behind > max(10_000, file.library.count / 20)
                } else {
                    snapshot.library = try Self.library(db)
                    snapshot.isLibraryFileStale = snapshot.library.count > 0
                }
                try Self.readState(db, into: &snapshot)
                return snapshot
            }
        } catch {
            throw CatalogueDamage(reason: "\(error)")
        }
    }

    /// Every row as a library, in one pass and one sort.
    private static func library(_ db: Database) throws -> PhotoLibrary {
        var builder = PhotoLibrary.Builder()
        let cursor = try Row.fetchCursor(db, sql: "SELECT \(photoColumns), focus FROM photo ORDER BY id")
        while let row = try cursor.next() { builder.add(photo(row), focus: row["focus"]) }
        return builder.finish()
    }

    /// The tag list and the walks' state.
    private static func readState(_ db: Database, into snapshot: inout Snapshot) throws {
        snapshot.tags = try Row.fetchAll(db, sql: "SELECT id, name, color FROM tag ORDER BY position").map {
            PhotoPickKit.Tag(id: $0["id"], name: $0["name"], color: $0["color"])
        }
        if let walk = try Row.fetchOne(db, sql: "SELECT * FROM walk WHERE id = 1") {
            snapshot.completedAt = (walk["completed_at"] as Double?).map(Date.init(timeIntervalSince1970:))
            if walk["in_progress"] as Bool {
                snapshot.walk = Walk(generation: walk["generation"], cursor: walk["cursor"], seen: walk["seen"])
            }
        }
    }

    /// Writes the library file from the catalogue as it is now, through a reading connection of its own,
    /// so the walk's pages go on being written meanwhile; then forgets the photos gone before it. Seconds
    /// of work at a million photos, for a background task after a walk.
    func writeLibraryFile() throws {
        // One write at a time; one asked for meanwhile (a walk finishing during a checkpoint's write)
        // is made once that one ends, from the catalogue as it is then.
        guard fileWriting.withLockedValue({ state in
            if state.running { state.again = true }
            defer { state.running = true }
            return !state.running
        }) else { return }
        defer { fileWriting.withLockedValue { $0 = (false, false) } }
        repeat { try writeLibraryFileOnce() } while fileWriting.withLockedValue { state in
            defer { state.again = false }
            return state.again
        }
    }

    private func writeLibraryFileOnce() throws {
        var configuration = Configuration()
        configuration.readonly = true
        let reader = try DatabaseQueue(path: url.path, configuration: configuration)
        let (library, revision, instance) = try reader.read { db in
            let (revision, instance) = try Self.revision(db)
            return (try Self.library(db), revision, instance)
        }
        try reader.close()
        try LibraryFile.write(library, revision: revision, instance: instance, to: libraryFile)
        try queue.write { db in try db.execute(sql: "DELETE FROM photo_gone WHERE revision <= ?", arguments: [revision]) }
    }

    /// The tags of the photos whose copy was seen by a page or a read at `since` or later.
    func tags(ofPhotos ids: [Int], seenSince since: Date) throws -> [Int: [Int]] {
        try queue.read { db in
            var result: [Int: [Int]] = [:]
            let statement = try db.cachedStatement(sql: "SELECT tag_ids FROM photo WHERE id = ? AND seen_at >= ?")
            for id in ids {
                if let text = try String.fetchOne(statement, arguments: [id, since.timeIntervalSince1970]) {
                    result[id] = Self.tagIDs(text)
                }
            }
            return result
        }
    }
}

/// The catalogue file is not one photopick can use.
struct CatalogueDamage: Error, CustomStringConvertible {
    /// Why, in a few words.
    let reason: String
    /// The reason.
    var description: String { reason }
}
