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

    // MARK: - Walking

    /// Starts a walk from the first page, or returns the one in progress.
    func beginWalk() throws -> Walk {
        try queue.write { db in
            if let row = try Row.fetchOne(db, sql: "SELECT * FROM walk WHERE id = 1"), row["in_progress"] as Bool {
                return Walk(generation: row["generation"], cursor: row["cursor"], seen: row["seen"])
            }
            let generation = (try Int64.fetchOne(db, sql: "SELECT generation FROM walk WHERE id = 1") ?? 0) + 1
            try db.execute(sql: """
                INSERT INTO walk (id, generation, cursor, seen, in_progress) VALUES (1, ?, NULL, 0, 1)
                ON CONFLICT (id) DO UPDATE SET generation = excluded.generation, cursor = NULL, seen = 0, in_progress = 1
                """, arguments: [generation])
            return Walk(generation: generation, cursor: nil, seen: 0)
        }
    }

    /// Keeps a page and where the walk goes next, in one transaction: a kill between pages loses nothing.
    /// `date` is when the page was asked for.
    func save(page photos: [Photo], nextCursor: String?, walk: Walk, at date: Date) async throws {
        try await queue.write { db in
            // A read or write of a photo's tags newer than the page's request (`date`) keeps its tags: the
            // page was on its way before they changed.
            let statement = try db.cachedStatement(sql: """
                INSERT INTO photo (\(Self.photoColumns), seen_at, walk)
                VALUES (\(Array(repeating: "?", count: Self.photoColumnCount + 2).joined(separator: ", ")))
                ON CONFLICT (id) DO UPDATE SET filename = excluded.filename, bytes = excluded.bytes,
                    taken_at = excluded.taken_at, created_at = excluded.created_at, width = excluded.width,
                    height = excluded.height, mime_type = excluded.mime_type, camera_make = excluded.camera_make,
                    camera_model = excluded.camera_model, lens = excluded.lens, iso = excluded.iso,
                    f_number = excluded.f_number, exposure_time = excluded.exposure_time,
                    focal_length = excluded.focal_length, latitude = excluded.latitude, longitude = excluded.longitude,
                    title = excluded.title, description = excluded.description, extra = excluded.extra,
                    tag_ids = CASE WHEN photo.seen_at > excluded.seen_at THEN photo.tag_ids ELSE excluded.tag_ids END,
                    seen_at = MAX(photo.seen_at, excluded.seen_at), walk = excluded.walk
                """)
            for photo in photos {
                try statement.execute(arguments: Self.arguments(photo, seenAt: date, walk: walk.generation))
            }
            try db.execute(
                sql: "UPDATE walk SET cursor = ?, seen = ? WHERE id = 1 AND generation = ?",
                arguments: [nextCursor, walk.seen, walk.generation]
            )
        }
    }

    /// The server refused the walk's cursor: it goes on from the first page, and what it saw still counts.
    func restartWalk(_ walk: Walk) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE walk SET cursor = NULL WHERE id = 1 AND generation = ?", arguments: [walk.generation])
        }
    }

    /// Ends a complete walk: the photos it did not see are gone from the server, and go from here.
    /// Returns their ids.
    func completeWalk(_ walk: Walk, at date: Date) async throws -> [Int] {
        try await queue.write { db in
            let gone = try Int.fetchAll(db, sql: "SELECT id FROM photo WHERE walk < ?", arguments: [walk.generation])
            try db.execute(sql: "DELETE FROM photo WHERE walk < ?", arguments: [walk.generation])
            try db.execute(
                sql: "UPDATE walk SET in_progress = 0, cursor = NULL, completed_at = ? WHERE id = 1",
                arguments: [date.timeIntervalSince1970]
            )
            return gone
        }
    }

    /// Keeps focus scores of photos the catalogue holds.
    func save(focusScores: [(photoID: Int, score: Double)]) async throws {
        try await queue.write { db in
            let statement = try db.cachedStatement(sql: "UPDATE photo SET focus = ? WHERE id = ?")
            for (photoID, score) in focusScores { try statement.execute(arguments: [score, photoID]) }
        }
    }

    // MARK: - Tags

    /// Replaces the tag list, in the server's order.
    func save(tags: [PhotoPickKit.Tag]) async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM tag")
            let statement = try db.cachedStatement(sql: "INSERT INTO tag (id, name, color, position) VALUES (?, ?, ?, ?)")
            for (position, tag) in tags.enumerated() { try statement.execute(arguments: [tag.id, tag.name, tag.color, position]) }
        }
    }

    /// A tag made or changed; a new one goes last.
    func save(tag: PhotoPickKit.Tag) async throws {
        try await queue.write { db in
            try db.execute(sql: """
                INSERT INTO tag (id, name, color, position) VALUES (?, ?, ?, (SELECT COALESCE(MAX(position), -1) + 1 FROM tag))
                ON CONFLICT (id) DO UPDATE SET name = excluded.name, color = excluded.color
                """, arguments: [tag.id, tag.name, tag.color])
        }
    }

    /// A deleted tag, which the server also took off every photo.
    func remove(tagID: Int) async throws {
        try await queue.write { db in
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [tagID])
            let rows = try Row.fetchAll(db, sql: "SELECT id, tag_ids FROM photo WHERE tag_ids != ''")
            let statement = try db.cachedStatement(sql: "UPDATE photo SET tag_ids = ? WHERE id = ?")
            for row in rows {
                let ids = Self.tagIDs(row["tag_ids"])
                guard ids.contains(tagID) else { continue }
                try statement.execute(arguments: [Self.text(ids.filter { $0 != tagID }), row["id"] as Int])
            }
        }
    }

    /// Forgets photos deleted from the server by photopick itself.
    func remove(photoIDs: [Int]) async throws {
        try await queue.write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM photo WHERE id = ?")
            for id in photoIDs { try statement.execute(arguments: [id]) }
        }
    }

    /// A photo's fields as the server just answered an edit; its tags are left to the tag writes.
    func save(photo: Photo) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE photo SET filename = ?, title = ?, description = ?, taken_at = ? WHERE id = ?",
                arguments: [photo.filename, photo.title, photo.description, photo.takenAt?.timeIntervalSince1970, photo.id]
            )
        }
    }

    /// A photo's tags as the server just said they are, by a read or a write.
    func save(tagIDs: [Int], ofPhoto id: Int, at date: Date) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE photo SET tag_ids = ?, seen_at = ? WHERE id = ?",
                arguments: [Self.text(tagIDs), date.timeIntervalSince1970, id]
            )
        }
    }

    // MARK: - Rows

    private static func arguments(_ photo: Photo, seenAt: Date, walk: Int64) -> StatementArguments {
        let extra = photo.extra.isEmpty ? nil : (try? JSONEncoder().encode(photo.extra)).map { String(decoding: $0, as: UTF8.self) }
        let values: [(any DatabaseValueConvertible)?] = [
            photo.id, photo.filename, photo.bytes, photo.takenAt?.timeIntervalSince1970, photo.createdAt?.timeIntervalSince1970,
            photo.width, photo.height, photo.mimeType, photo.camera?.make, photo.camera?.model, photo.lens,
            photo.exposure?.iso, photo.exposure?.fNumber, photo.exposure?.exposureTime, photo.exposure?.focalLength,
            photo.location?.latitude, photo.location?.longitude, photo.title, photo.description, extra,
            text(photo.tagIDs), seenAt.timeIntervalSince1970, walk,
        ]
        return StatementArguments(values)
    }

    /// The columns `photo(_:)` reads by position and `save(page:)` writes (then `seen_at`, `walk`): a
    /// name lookup per column per row is a third of the time of reading 100,000 photos.
    static let photoColumns = """
        id, filename, bytes, taken_at, created_at, width, height, mime_type, camera_make, camera_model, lens,
        iso, f_number, exposure_time, focal_length, latitude, longitude, title, description, extra, tag_ids
        """

    static let photoColumnCount = photoColumns.split(separator: ",").count

    private static func photo(_ row: Row) -> Photo {
        let takenAt: Double? = row[3]
        var photo = Photo(id: row[0], filename: row[1], bytes: row[2], takenAt: takenAt.map(Date.init(timeIntervalSince1970:)), tagIDs: tagIDs(row[20]))
        photo.createdAt = (row[4] as Double?).map(Date.init(timeIntervalSince1970:))
        photo.width = row[5]
        photo.height = row[6]
        photo.mimeType = row[7]
        let make: String? = row[8], model: String? = row[9]
        if make != nil || model != nil { photo.camera = Photo.Camera(make: make, model: model) }
        photo.lens = row[10]
        let exposure = Photo.Exposure(iso: row[11], fNumber: row[12], exposureTime: row[13], focalLength: row[14])
        if exposure != Photo.Exposure(iso: nil, fNumber: nil, exposureTime: nil, focalLength: nil) { photo.exposure = exposure }
        if let latitude: Double = row[15], let longitude: Double = row[16] {
            photo.location = Photo.Location(latitude: latitude, longitude: longitude)
        }
        photo.title = row[17]
        photo.description = row[18]
        if let extra: String = row[19], let values = try? JSONDecoder().decode([String: JSONValue].self, from: Data(extra.utf8)) {
            photo.extra = values
        }
        return photo
    }

    static func text(_ tagIDs: [Int]) -> String {
        tagIDs.map(String.init).joined(separator: ",")
    }

    static func tagIDs(_ text: String) -> [Int] {
        text.isEmpty ? [] : text.utf8.split(separator: UInt8(ascii: ",")).compactMap { Int(Substring($0)) }
    }

    // MARK: - Damage

    /// Renames the file (and its journal) to `…damaged-<time>` beside it, so nothing is lost; returns the new name.
    private static func setAside(_ url: URL, reason: any Error, at now: Date) throws -> URL {
        let stamp = Int(now.timeIntervalSince1970)
        let aside = url.deletingLastPathComponent().appending(path: url.lastPathComponent + ".damaged-\(stamp)")
        let manager = FileManager.default
        try? manager.removeItem(at: aside)
        if manager.fileExists(atPath: url.path) { try manager.moveItem(at: url, to: aside) }
        for suffix in ["-wal", "-shm"] {
            let companion = URL(fileURLWithPath: url.path + suffix)
            guard manager.fileExists(atPath: companion.path) else { continue }
            try? manager.removeItem(at: URL(fileURLWithPath: aside.path + suffix))
            try? manager.moveItem(at: companion, to: URL(fileURLWithPath: aside.path + suffix))
        }
        return aside
    }

    private static func notice(aside: URL, reason: any Error) -> String {
        let why = (reason as? CatalogueDamage)?.reason ?? (reason as? DatabaseError)?.message ?? "\(reason)"
        return "The local catalogue could not be read (\(TerminalText.sanitized(why))); it was set aside as \(aside.lastPathComponent) and is being rebuilt from the server."
    }

    /// Sets the damaged file aside and starts an empty one in its place, for a file that opened but
    /// could not be read; returns the new catalogue and the notice.
    func rebuilt(library: String, after damage: any Error, at now: Date) throws -> (Catalogue, notice: String) {
        let aside = try Self.setAside(url, reason: damage, at: now)
        return (try Catalogue(url: url, library: library), Self.notice(aside: aside, reason: damage))
    }
}

/// The catalogue file is not one photopick can use.
struct CatalogueDamage: Error, CustomStringConvertible {
    /// Why, in a few words.
    let reason: String
    /// The reason.
    var description: String { reason }
}
