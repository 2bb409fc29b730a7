import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// A start with a long outbox: the first frame does not wait for it.
@Suite struct OutboxStartTests {
    /// 10,000 photos in the catalogue, each with 10 tag edits waiting: 100,000 pending edits.
    private func seed(_ directory: URL, library: String) async throws {
        let (catalogue, _) = try Catalogue.open(library: library, directory: directory, now: Sample.now)
        let walk = try catalogue.beginWalk()
        let photos = (1...10_000).map { Sample.photo($0, "IMG_\($0).jpg", takenAt: TimeInterval($0), tags: [1]) }
        for page in stride(from: 0, to: photos.count, by: 1_000) {
            try await catalogue.save(page: Array(photos[page..<page + 1_000]), nextCursor: nil, walk: walk, at: Sample.now)
        }
        _ = try await catalogue.completeWalk(walk, at: Sample.now)
        let outbox = TagOutbox(database: try StateDatabase(directory: directory), library: library)
        var sequence: Int64 = 0
        let deltas = photos.flatMap { photo in
            (1...10).map { tag in
                sequence += 1
                return TagDelta(sequence: sequence, photoID: photo.id, tagID: tag, change: tag % 2 == 0 ? .add : .remove)
            }
        }
        try outbox.record(deltas)
    }

    @Test @MainActor func aStartWith100000PendingEditsShowsThemWithoutWaitingForTheOutbox() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await seed(directory, library: "test")
        // A server already gone: nothing is sent (or refused) during the start.
        let gone = try await TestServer.start(photos: 1)
        await gone.stop()
        do {
            let client = APIClient.forTesting(gone, retryPolicy: .never)
            // What the terminal app does before its first frame with photos: open, start, read the catalogue.
            let session = try BrowserSession(client: client, configuration: .init(
                library: "test", stateDirectory: directory, downloadDirectory: directory, clock: Timekeeper(TestClock()), refresh: .manual
            ))
            try session.start()
            try await session.waitUntil("the catalogue") { $0.loading.isCatalogueRead }
            let state = session.state
            await session.stop()
            try? await client.shutdown()
            // The list came while every edit still waited: the start read the catalogue without sending,
            // replaying or dropping any. How fast it is belongs to a benchmark, not to a timed test.
            #expect(state.unsentTagDeltas == 100_000 && state.library.count == 10_000)
            #expect(Set(state.library[0].tagIDs) == [2, 4, 6, 8, 10], "the waiting edits are shown")
        }
    }
}
