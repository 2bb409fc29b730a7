import Foundation
import GRDB
import PhotoPickKit

/// The walk over every page of the server, kept page by page, and what sent edits and measurements learn.
extension Catalogue {
    /// Whether a saved page's row differs from the stored one in any field but its tags: the same SQL
    /// for every page, made once.
    static let anyFieldChanged = photoColumns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        .filter { $0 != "id" && $0 != "tag_ids" }.map { "photo.\($0) IS NOT excluded.\($0)" }.joined(separator: " OR ")

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
    func save(page photos: [Photo], nextCursor: String?, walk: Walk, at date: Date, keepsCursor: Bool = false) async throws {
        try await queue.write { db in
            // A read or write of a photo's tags newer than the page's request (`date`) keeps its tags: the
            // page was on its way before they changed.
            // A row takes the write's revision only when something in it changed: a walk that finds the
            // library as it was leaves the library file current.
            let revision = try Self.nextRevision(db)
            let keptTags = "CASE WHEN photo.seen_at > excluded.seen_at THEN photo.tag_ids ELSE excluded.tag_ids END"
            let changed = Self.anyFieldChanged
            let statement = try db.cachedStatement(sql: """
                INSERT INTO photo (\(Self.photoColumns), seen_at, walk, revision)
                VALUES (\(Array(repeating: "?", count: Self.photoColumnCount + 3).joined(separator: ", ")))
                ON CONFLICT (id) DO UPDATE SET
                    revision = CASE WHEN \(changed) OR (\(keptTags)) IS NOT photo.tag_ids THEN excluded.revision ELSE photo.revision END,
                    filename = excluded.filename, bytes = excluded.bytes,
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
                var arguments = Self.arguments(photo, seenAt: date, walk: walk.generation)
                arguments += [revision]
                try statement.execute(arguments: arguments)
            }
            if !keepsCursor {
                try db.execute(
                    sql: "UPDATE walk SET cursor = ?, seen = ? WHERE id = 1 AND generation = ?",
                    arguments: [nextCursor, walk.seen, walk.generation]
                )
            }
        }
    }

    /// The server refused the walk's cursor: it goes on from the first page, and what it saw still counts.
    func restartWalk(_ walk: Walk) throws {
        try queue.write { db in
            try db.execute(sql: "UPDATE walk SET cursor = NULL WHERE id = 1 AND generation = ?", arguments: [walk.generation])
        }
    }

    /// Ends a complete walk: the photos it did not see are gone from the server, and go from here.
    /// `tail` is the cursor its last page was asked with, which the next refresh asks first. Returns the
    /// ids of the photos gone.
    func completeWalk(_ walk: Walk, at date: Date, tail: String? = nil) async throws -> [Int] {
        try await queue.write { db in
            let gone = try Int.fetchAll(db, sql: "SELECT id FROM photo WHERE walk < ?", arguments: [walk.generation])
            if !gone.isEmpty { try Self.recordGone(gone, revision: try Self.nextRevision(db), db) }
            try db.execute(sql: "DELETE FROM photo WHERE walk < ?", arguments: [walk.generation])
            try db.execute(
                sql: "UPDATE walk SET in_progress = 0, cursor = NULL, completed_at = ?, tail_cursor = COALESCE(?, tail_cursor) WHERE id = 1",
                arguments: [date.timeIntervalSince1970, tail]
            )
            return gone
        }
    }

    /// Where the last complete walk's last page began: new photos are after it.
    func tailCursor() throws -> String? {
        try queue.read { db in try String.fetchOne(db, sql: "SELECT tail_cursor FROM walk WHERE id = 1") }
    }

    /// Keeps the tail after a look at it found newer pages; nil forgets one the server refused.
    func saveTail(_ cursor: String?) throws {
        try queue.write { db in try db.execute(sql: "UPDATE walk SET tail_cursor = ? WHERE id = 1", arguments: [cursor]) }
    }

    /// Keeps photos found past the tail under the walk `generation` (the one under way, or the last
    /// complete one), so a walk completing later counts them as seen.
    func save(tail photos: [Photo], generation: Int64, at date: Date) async throws {
        try await save(page: photos, nextCursor: nil, walk: Walk(generation: generation, cursor: nil, seen: 0), at: date, keepsCursor: true)
    }

    /// Keeps focus scores of photos the catalogue holds.
    func save(focusScores: [(photoID: Int, score: Double)]) async throws {
        try await queue.write { db in
            let revision = try Self.nextRevision(db)
            let statement = try db.cachedStatement(sql: "UPDATE photo SET focus = ?, revision = ? WHERE id = ?")
            for (photoID, score) in focusScores { try statement.execute(arguments: [score, revision, photoID]) }
        }
    }

    // MARK: Tags

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
            let revision = try Self.nextRevision(db)
            let statement = try db.cachedStatement(sql: "UPDATE photo SET tag_ids = ?, revision = ? WHERE id = ?")
            for row in rows {
                let ids = Self.tagIDs(row["tag_ids"])
                guard ids.contains(tagID) else { continue }
                try statement.execute(arguments: [Self.text(ids.filter { $0 != tagID }), revision, row["id"] as Int])
            }
        }
    }

    /// Forgets photos deleted from the server by photopick itself.
    func remove(photoIDs: [Int]) async throws {
        try await queue.write { db in
            try Self.recordGone(photoIDs, revision: try Self.nextRevision(db), db)
            let statement = try db.cachedStatement(sql: "DELETE FROM photo WHERE id = ?")
            for id in photoIDs { try statement.execute(arguments: [id]) }
        }
    }

    /// A photo's fields as the server just answered an edit; its tags are left to the tag writes.
    func save(photo: Photo) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE photo SET filename = ?, title = ?, description = ?, taken_at = ?, revision = ? WHERE id = ?",
                arguments: [photo.filename, photo.title, photo.description, photo.takenAt?.timeIntervalSince1970, try Self.nextRevision(db), photo.id]
            )
        }
    }

    /// A photo's tags as the server just said they are, by a read or a write.
    func save(tagIDs: [Int], ofPhoto id: Int, at date: Date) async throws {
        try await queue.write { db in
            try db.execute(
                sql: "UPDATE photo SET tag_ids = ?, seen_at = ?, revision = ? WHERE id = ?",
                arguments: [Self.text(tagIDs), date.timeIntervalSince1970, try Self.nextRevision(db), id]
            )
        }
    }
}
