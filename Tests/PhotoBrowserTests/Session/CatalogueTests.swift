import Foundation
import GRDB
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// The local catalogue: a warm start shows everything before any page is asked for, a refresh
/// reconciles, an interrupted walk resumes, and a damaged file costs a rebuild, never a crash.
@Suite(.timeLimit(.minutes(1))) struct CatalogueTests {
    /// Page requests of the listing in a server log (`GET /api/v1/photos 200 3ms`).
    private func pages(_ log: LineLog) -> Int {
        var count = 0
        for line in log.lines {
            let parts = line.split(separator: " ")
            if parts.count > 2, parts[0] == "GET", parts[1] == "/api/v1/photos" { count += 1 }
        }
        return count
    }

    @Test @MainActor func aWarmStartShowsTheCachedLibraryAtOnceThenReconciles() async throws {
        let log = LineLog()
        let state = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        try await TestServer.with(photos: 250, { $0.requestLog = { log.append($0) } }) { server, api in
            try await withSession(server, state: state) { session in try await session.waitForLibrary() }
            #expect(pages(log) == 3)
            // Meanwhile, on the server: one renamed, one deleted, one re-tagged and one added.
            let client = APIClient.forTesting(server)
            _ = try await client.send(API.updatePhoto(id: 5, PhotoUpdate(filename: "renamed.jpg")))
            try await client.send(API.deletePhoto(id: 7))
            _ = try await client.send(API.replacePhotoTags(id: 9, tagIDs: [2, 3]))
            let added = try #require(try await server.addPhoto(copying: 3))
            try await client.shutdown()
            _ = api
            let before = pages(log)
            var atFirstSight: (photos: Int, pages: Int)?
            try await withSession(server, state: state, { event, state in
                if case .report(.catalogue(.catalogueLoaded)) = event { atFirstSight = (state.library.count, pages(log) - before) }
            }) { session in
                try await session.waitForLibrary()
                #expect(atFirstSight?.photos == 250 && atFirstSight?.pages == 0, "every cached photo, no page asked for: \(String(describing: atFirstSight))")
                let library = session.state.library
                #expect(library.count == 250)
                #expect(library.index(ofID: 7) == nil)
                #expect(library.index(ofID: 5).map { library[$0].filename } == "renamed.jpg")
                #expect(library.index(ofID: 9).map { Set(library[$0].tagIDs) } == [2, 3])
                #expect(library.index(ofID: added) != nil)
                // A RAW+JPEG pair is one row.
                #expect(session.state.list.count == 250 - library.pairs.count)
            }
            #expect(pages(log) - before == 4, "the last walk's tail (the one photo added), then one walk of the three pages")
        }
    }

    @Test @MainActor func anInterruptedWalkResumesFromItsCursorAndARefusedOneRestarts() async throws {
        let log = LineLog()
        let state = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        try await TestServer.with(photos: 1_000, { $0.requestLog = { log.append($0) } }) { server, _ in
            // Stopped (as a quit or a kill would) after some pages of ten.
            try await withSession(server, state: state) { session in
                try await session.waitUntil("three pages") { $0.library.count >= 300 }
            }
            let first = pages(log)
            #expect(first < 10)
            var shownAtStart = 0
            try await withSession(server, state: state, { event, state in
                if case .report(.catalogue(.catalogueLoaded)) = event { shownAtStart = state.library.count }
            }) { session in
                try await session.waitForLibrary()
                #expect(session.state.library.count == 1_000)
            }
            #expect(shownAtStart >= 300)
            // Resumed: the second session asked only for what the first had not kept (and the page it had in flight).
            #expect(pages(log) - first <= 10 - shownAtStart / 100 + 1, "the second session: \(pages(log) - first) pages, \(shownAtStart) kept")

            // A walk whose cursor the server refuses starts over and keeps every photo it has.
            let (catalogue, _) = try Catalogue.open(library: "test", directory: state, now: Sample.now)
            try await catalogue.queue.write { db in
                try db.execute(sql: "UPDATE walk SET in_progress = 1, cursor = 'tampered', seen = 500 WHERE id = 1")
            }
            try await withSession(server, state: state) { session in
                try await session.waitForLibrary()
                #expect(session.state.library.count == 1_000)
                #expect(session.state.messages.current?.text.contains("walking again from the start") == true)
            }
            #expect(try catalogue.snapshot().allPhotos.count == 1_000)
        }
    }

    @Test(arguments: ["random bytes", "truncated"])
    @MainActor func aDamagedCatalogueIsSetAsideAndRebuiltWithANotice(damage: String) async throws {
        let state = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        try await TestServer.with(photos: 120) { server, _ in
            try await withSession(server, state: state) { session in try await session.waitForLibrary() }
            let (catalogue, _) = try Catalogue.open(library: "test", directory: state, now: Sample.now)
            let url = catalogue.url
            try await catalogue.queue.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
            let size = try #require(try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int)
            if damage == "random bytes" {
                try Data((0..<size).map { _ in UInt8.random(in: 0...255) }).write(to: url)
            } else {
                let handle = try FileHandle(forWritingTo: url)
                try handle.truncate(atOffset: UInt64(size / 3))
                try handle.close()
            }
            var notice: String?
            try await withSession(server, state: state, { event, _ in
                if case .report(.catalogue(.catalogueLoaded(_, let text, _))) = event { notice = text }
            }) { session in
                try await session.waitForLibrary()
                #expect(session.state.library.count == 120)
            }
            #expect(notice?.hasPrefix("The local catalogue could not be read") == true, "\(String(describing: notice))")
            let files = try FileManager.default.contentsOfDirectory(atPath: state.path)
            #expect(files.contains { $0.contains(".sqlite.damaged-") }, "\(files)")
            #expect(try Catalogue.open(library: "test", directory: state, now: Sample.now).0.snapshot().allPhotos.count == 120)
        }
    }

    @Test func focusScoresAreKeptAndAPageFromTheServerLeavesThemBe() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (catalogue, _) = try Catalogue.open(library: "focus", directory: directory, now: Sample.now)
        let walk = try catalogue.beginWalk()
        try await catalogue.save(page: [Sample.photo(1, "a.jpg"), Sample.photo(2, "b.jpg")], nextCursor: nil, walk: walk, at: Sample.now)
        try await catalogue.save(focusScores: [(photoID: 1, score: 7.5), (photoID: 9, score: 1)])
        try await catalogue.save(page: [Sample.photo(1, "a-renamed.jpg")], nextCursor: nil, walk: walk, at: Sample.now)
        let snapshot = try catalogue.snapshot()
        #expect(snapshot.allFocusScores == [1: 7.5], "kept across the page; a photo not in the catalogue is not added")
        var state = BrowserState(downloadDirectory: directory)
        _ = state.apply(.catalogue(.catalogueLoaded(snapshot, notice: nil, at: Sample.now)))
        #expect(state.library.focusScore(at: state.library.index(ofID: 1)!) == 7.5)
        #expect(state.library.focusScore(at: state.library.index(ofID: 2)!) == nil)
    }

    @Test func anOlderSchemaIsMigratedKeepingItsPhotos() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (made, _) = try Catalogue.open(library: "old", directory: directory, now: Sample.now)
        let url = made.url
        try FileManager.default.removeItem(at: url)
        let old = try DatabaseQueue(path: url.path)
        try Catalogue.migrator.migrate(old, upTo: "v1")
        try old.write { db in
            try db.execute(sql: "INSERT INTO library (id, name) VALUES (1, 'old')")
            try db.execute(sql: """
                INSERT INTO photo (id, filename, bytes, tag_ids, seen_at, walk) VALUES (42, 'kept.jpg', 10, '1,2', 0, 1)
                """)
        }
        try old.close()
        let (catalogue, notice) = try Catalogue.open(library: "old", directory: directory, now: Sample.now)
        #expect(notice == nil)
        let photos = try catalogue.snapshot().allPhotos
        #expect(photos.map(\.filename) == ["kept.jpg"] && photos[0].tagIDs == [1, 2])
        let indexes = try catalogue.queue.read { db in try db.indexes(on: "photo").map(\.name) }
        #expect(indexes.contains("photo_walk"))
    }

    @Test @MainActor func freshTagsAreWrittenWithoutARead() async throws {
        let log = LineLog()
        try await TestServer.with(photos: 40, { $0.requestLog = { log.append($0) } }) { server, _ in
            try await withSession(server) { session in
                try await session.waitForLibrary()
                session.send(.browsing(.cursorMoved(.top)))
                session.send(.selection(.visualRangeToggled))
                session.send(.browsing(.cursorMoved(.position(9))))
                session.send(.tags(.tagNumberPressed(4)))
                try await session.waitUntil("the edits to be sent") { $0.unsentTagDeltas == 0 }
            }
            #expect(log.requests("PUT /api/v1/photos/").count == 10)
            #expect(log.requests("GET /api/v1/photos/").filter { $0.contains("/tags") }.isEmpty, "no reads: the walk had just seen them")
        }
    }
}
