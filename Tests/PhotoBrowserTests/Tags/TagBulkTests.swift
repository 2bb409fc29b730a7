import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// A tag on many photos is one outbox row (a bulk) that the pump makes into deltas a chunk at a time.
@Suite(.timeLimit(.minutes(2))) struct TagBulkTests {
    private func photos(_ count: Int) -> [Photo] {
        (1...count).map { Sample.photo($0, "IMG_\($0).jpg", takenAt: Double($0)) }
    }

    @Test func aToggleOnManyPhotosIsOneBulkShownAtOnceAndUndoneAsOne() throws {
        var state = Sample.state(photos(800))
        _ = state.apply(.selection(.allMatchingSelected))
        let effects = state.apply(.tags(.tagToggled(tagID: 3)))
        let bulks = effects.compactMap { effect -> TagBulk? in if case .recordTagBulk(let bulk, _) = effect { bulk } else { nil } }
        #expect(bulks.count == 1 && !effects.contains { if case .recordTagDeltas = $0 { true } else { false } })
        let bulk = try #require(bulks.first)
        #expect(bulk.photoIDs == Array(1...800) && bulk.tagID == 3 && bulk.change == .add)
        #expect(state.library.count(ofTag: 3) == 800 && state.unsentTagDeltas == 800)
        // Every photo has it now: the same key takes it off, as another bulk after the first.
        let second = state.apply(.tags(.tagToggled(tagID: 3)))
        #expect(second.contains { if case .recordTagBulk(let removal, _) = $0 { removal.change == .remove && removal.sequence >= bulk.sequence + 800 } else { false } })
        #expect(state.library.count(ofTag: 3) == 0)
        let undone = state.apply(.undoRequested)
        #expect(undone.contains { if case .recordTagBulk(let again, _) = $0 { again.change == .add && again.photoIDs.count == 800 } else { false } })
        #expect(state.library.count(ofTag: 3) == 800)
    }

    @Test func theOutboxMakesABulkIntoDeltasKeepingAToggleMadeAfterIt() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outbox = TagOutbox(database: try StateDatabase(directory: directory), library: "bulk")
        try outbox.record([TagDelta(sequence: 5, photoID: 3, tagID: 1, change: .remove)])  // older than the bulk
        try outbox.record(TagBulk(sequence: 100, tagID: 1, change: .add, photoIDs: [2, 3, 4, 5]))
        try outbox.record([TagDelta(sequence: 200, photoID: 4, tagID: 1, change: .remove)])  // newer
        let first = try #require(try outbox.expandNextBulk(count: 3))
        #expect(first.bulk == 100 && first.expanded == 3)
        #expect(first.deltas.map(\.photoID) == [2, 3], "photo 4's own toggle is newer and stays")
        let second = try #require(try outbox.expandNextBulk(count: 3))
        #expect(second.expanded == 4 && second.deltas.map(\.photoID) == [5])
        #expect(try outbox.expandNextBulk(count: 3) == nil, "done: the bulk row is gone")
        let rows = try outbox.database.queue.read { db in try TagOutbox.all(db, library: "bulk") }
        #expect(Set(rows.map { "\($0.photoID):\($0.change.rawValue)" }) == ["2:add", "3:add", "4:remove", "5:add"])
        // The user's own rows go first.
        #expect(try outbox.nextBatch(photos: 1).map(\.photoID) == [4])
    }

    @Test @MainActor func selectAllThenATagReachesTheServerOnEveryPhotoAndSurvivesARestart() async throws {
        let state = TestServer.temporaryDirectory(), data = TestServer.temporaryDirectory()
        defer { [state, data].forEach { try? FileManager.default.removeItem(at: $0) } }
        // First run: the library is walked, then the server goes before the tag is sent.
        let first = try await TestServer.start(photos: 600) { $0.dataDirectory = data }
        let port = first.port
        let intended = try await withSession(first, state: state, retryPolicy: .never) { session in
            try await session.waitForLibrary()
            await first.stop()
            session.send(.selection(.allMatchingSelected))
            session.send(.tags(.tagToggled(tagID: 5)))
            let lacking = session.state.unsentTagDeltas
            #expect(lacking > 450, "those that lacked it: \(lacking)")
            return Set((0..<session.state.library.storedCount).map(session.state.library.id(at:)))
        }
        // Next run: the catalogue's photos show the bulk's tag before anything is sent, then it goes.
        try await TestServer.with(photos: 600, { $0.dataDirectory = data; $0.port = port }) { server, api in
            try await withSession(server, state: state) { session in
                try await session.waitUntil("the catalogue") { $0.loading.isCatalogueRead }
                let shown = (0..<session.state.library.storedCount).filter { session.state.library.has(5, at: $0) }.count
                #expect(shown == 600, "shown from the outbox before it is sent")
                try await session.waitUntil("every tag sent") { $0.unsentTagDeltas == 0 && $0.loading.phase == .complete }
            }
            var tagged = Set<Int>()
            var cursor: String?
            repeat {
                let page = try await api.get("/photos?limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")).json
                for photo in page["data"].array where photo["tagIds"].array.compactMap(\.int).contains(5) { tagged.insert(photo["id"].int!) }
                cursor = page["pagination"]["nextCursor"].string
            } while cursor != nil
            #expect(tagged == intended)
        }
    }
}
