import Foundation
import GRDB
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

    /// What the catalogue holds when a session starts.
    package struct Snapshot: Sendable {
        /// Every photo, as last seen, with the server's tags.
        var photos: [Photo] = []
        /// Every tag, in the server's order.
        var tags: [PhotoPickKit.Tag] = []
        /// When the last complete walk ended; nil when none has.
        var completedAt: Date?
        /// The walk in progress, to resume; nil when the last one finished (or none began).
        var walk: Walk?
        /// Focus scores measured from the photos' renditions, by photo id.
        var focusScores: [Int: Double] = [:]
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
        return migrator
    }

    // MARK: - Reading

    /// Everything, for a start. Throws `CatalogueDamage` when the file turns out unreadable.
    func snapshot() throws -> Snapshot {
        do {
            return try queue.read { db in
                var snapshot = Snapshot()
                // One pass over the photos at start-up, focus scores with them.
                let cursor = try Row.fetchCursor(db, sql: "SELECT \(Self.photoColumns), focus FROM photo ORDER BY id")
                while let row = try cursor.next() {
                    let photo = Self.photo(row)
                    snapshot.photos.append(photo)
                    if let focus = row["focus"] as Double? { snapshot.focusScores[photo.id] = focus }
                }
                snapshot.tags = try Row.fetchAll(db, sql: "SELECT id, name, color FROM tag ORDER BY position").map {
                    PhotoPickKit.Tag(id: $0["id"], name: $0["name"], color: $0["color"])
                }
                if let walk = try Row.fetchOne(db, sql: "SELECT * FROM walk WHERE id = 1") {
                    snapshot.completedAt = (walk["completed_at"] as Double?).map(Date.init(timeIntervalSince1970:))
                    if walk["in_progress"] as Bool {
                        snapshot.walk = Walk(generation: walk["generation"], cursor: walk["cursor"], seen: walk["seen"])
                    }
                }
                return snapshot
            }
        } catch {
            throw CatalogueDamage(reason: "\(error)")
        }
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
