import Foundation
import GRDB
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// The outbox keeps the latest wish per photo and tag, and folds an old one-row-per-toggle file on open.
@Suite struct TagOutboxTests {
    private func rows(_ database: StateDatabase) throws -> [[String]] {
        try database.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT library, photo_id, tag_id, change FROM tag_delta ORDER BY library, photo_id, tag_id")
                .map { row in (0..<4).map { "\(row[$0] as DatabaseValue)" } }
        }
    }

    /// A browser and a verb on one state database, started a second apart before either wrote: their
    /// sequences are a million apart, so neither's write collides with the other's.
    @Test func sessionsStartedApartCountInRangesMillionsApart() throws {
        let browser = TagOutbox.firstSequence(after: 0, now: Date(timeIntervalSince1970: 1_800_000_000))
        let verb = TagOutbox.firstSequence(after: 0, now: Date(timeIntervalSince1970: 1_800_000_001))
        #expect(verb - browser == 1_000_000)
        // A database already past the clock's count goes on from its highest.
        #expect(TagOutbox.firstSequence(after: verb + 5, now: Date(timeIntervalSince1970: 1_800_000_000)) == verb + 6)
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try StateDatabase(directory: directory)
        try TagOutbox(database: database, library: "a").record((0..<1_000).map { TagDelta(sequence: browser + Int64($0), photoID: $0, tagID: 1, change: .add) })
        try TagOutbox(database: database, library: "a").record((0..<1_000).map { TagDelta(sequence: verb + Int64($0), photoID: $0, tagID: 2, change: .add) })
        #expect(try rows(database).count == 2_000)
    }

    @Test func theLatestWishPerPhotoAndTagWins() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try StateDatabase(directory: directory)
        let outbox = TagOutbox(database: database, library: "a")
        try outbox.record([TagDelta(sequence: 1, photoID: 7, tagID: 3, change: .add), TagDelta(sequence: 2, photoID: 7, tagID: 4, change: .add)])
        try outbox.record([TagDelta(sequence: 3, photoID: 7, tagID: 3, change: .remove)])
        try outbox.record([TagDelta(sequence: 4, photoID: 7, tagID: 3, change: .add), TagDelta(sequence: 5, photoID: 7, tagID: 3, change: .remove)])
        try TagOutbox(database: database, library: "b").record([TagDelta(sequence: 6, photoID: 7, tagID: 3, change: .add)])
        // Add, remove, add, remove is one row: the remove, kept since the server may have the tag.
        #expect(try rows(database) == [["\"a\"", "7", "3", "\"remove\""], ["\"a\"", "7", "4", "\"add\""], ["\"b\"", "7", "3", "\"add\""]])
        // Sending the replaced add (sequence 1) must not take the newer wish with it.
        try outbox.remove([1])
        #expect(try rows(database).count == 3)
        #expect(try outbox.nextBatch(photos: 64).map(\.sequence) == [2, 5])
    }

    @Test func aCreationAndItsDeltasLandOnTheRealTagAndANewerWishUnderItWins() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = try StateDatabase(directory: directory)
        let outbox = TagOutbox(database: database, library: "a")
        let kyoto = PendingTag(placeholderID: -10, name: "Kyoto", color: nil)
        try outbox.record([TagDelta(sequence: 11, photoID: 1, tagID: -10, change: .add), TagDelta(sequence: 12, photoID: 2, tagID: -10, change: .add)], creating: [kyoto])
        try outbox.record([TagDelta(sequence: 13, photoID: 2, tagID: 9, change: .remove)])
        #expect(try outbox.pendingTags() == [kyoto])
        #expect(try outbox.nextBatch(photos: 64).map(\.sequence) == [13], "deltas for a tag not made wait for it")
        try outbox.resolve(kyoto, as: 9)
        #expect(try outbox.pendingTags().isEmpty)
        #expect(try rows(database) == [["\"a\"", "1", "9", "\"add\""], ["\"a\"", "2", "9", "\"remove\""]])
        // A delta recorded under the placeholder after it was made lands on the real tag.
        try outbox.record([TagDelta(sequence: 14, photoID: 3, tagID: -10, change: .add)], creating: [kyoto])
        #expect(try outbox.pendingTags().isEmpty)
        try outbox.settleMadeTags()
        #expect(try rows(database).map { $0[2] } == ["9", "9", "9"])
        #expect(try database.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag_creation") } == 0)
    }

    @Test func anOutboxOfOneRowPerToggleIsFoldedOnOpen() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The file as the version before folding left it: its two migrations done, a row per toggle.
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("state.sqlite").path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('downloads-written-files');
                CREATE TABLE tag_delta (sequence INTEGER PRIMARY KEY, library TEXT NOT NULL, photo_id INTEGER NOT NULL,
                    tag_id INTEGER NOT NULL, change TEXT NOT NULL CHECK (change IN ('add', 'remove')));
                CREATE INDEX tag_delta_photo ON tag_delta (library, photo_id);
                CREATE TABLE download (id INTEGER PRIMARY KEY, library TEXT NOT NULL, photo_id INTEGER NOT NULL, variant TEXT NOT NULL,
                    directory TEXT NOT NULL, filename TEXT NOT NULL, photo_bytes INTEGER NOT NULL, taken_at REAL, mime_type TEXT,
                    estimated_bytes INTEGER NOT NULL, status TEXT NOT NULL, failure TEXT, received_bytes INTEGER NOT NULL DEFAULT 0,
                    total_bytes INTEGER, result_path TEXT, UNIQUE (library, photo_id, variant));
                CREATE TABLE written_file (library TEXT NOT NULL, path TEXT NOT NULL, photo_id INTEGER NOT NULL, variant TEXT NOT NULL,
                    length INTEGER NOT NULL, sha256 TEXT NOT NULL, device INTEGER NOT NULL, inode INTEGER NOT NULL,
                    written_at REAL NOT NULL, PRIMARY KEY (library, path));
                """)
            // 50 photos × 4 tags, each toggled 100 times: 20,000 rows, the last toggle of each a remove.
            let insert = try db.makeStatement(sql: "INSERT INTO tag_delta (sequence, library, photo_id, tag_id, change) VALUES (?, 'x', ?, ?, ?)")
            var sequence: Int64 = 0
            for round in 0..<100 {
                for photo in 1...50 {
                    for tag in 1...4 {
                        sequence += 1
                        try insert.execute(arguments: [sequence, photo, tag, round % 2 == 0 ? "add" : "remove"])
                    }
                }
            }
        }
        try queue.close()
        let database = try StateDatabase(directory: directory)
        let folded = try database.savedState(library: "x", now: Sample.now)
        #expect(folded.deltas.count == 200, "photos × tags")
        #expect(folded.deltas.allSatisfy { $0.change == .remove })
        #expect(folded.nextSequence > 20_000, "past every folded row")
    }
}
