import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `PhotoStream`: lazy, one page ahead, cancellable, and typed about refused cursors.
struct PhotoStreamTests {
    @Test func streamsTenThousandPhotosInOrderWithoutDuplicates() async throws {
        try await withKitServer(photos: 10_000) { _, client, log in
            var count = 0
            var lastID = 0
            var outOfOrder: [Int] = []
            for try await photo in PhotoStream(client: client) {
                if photo.id <= lastID { outOfOrder.append(photo.id) }
                lastID = photo.id
                count += 1
            }
            #expect(outOfOrder.isEmpty, "ids not above the one before: \(outOfOrder.prefix(10))")
            #expect(count == 10_000)
            #expect(log.requests("GET /api/v1/photos").count == 100)
        }
    }

    @Test func requestsNothingUntilIterationStartsThenStaysOnePageAhead() async throws {
        try await withKitServer(photos: 1_000) { _, client, log in
            let stream = PhotoStream(client: client)
            var iterator = stream.makeAsyncIterator()
            await iterator.fetchAheadAnswered()
            #expect(log.requests("GET /api/v1/photos").isEmpty, "a walk made and not started asks nothing")
            _ = try await iterator.next()
            // Requests start only in `next()`: once the one fetched ahead is answered, a slow consumer,
            // however long it dawdles, has cost exactly this many.
            await iterator.fetchAheadAnswered()
            #expect(log.requests("GET /api/v1/photos").count == 2, "the next page is fetched ahead, and no more")
            for _ in 0..<100 { _ = try await iterator.next() }
            await iterator.fetchAheadAnswered()
            #expect(log.requests("GET /api/v1/photos").count == 3)
        }
    }

    @Test func stopsOnALastPageAndCountsPagesAndTags() async throws {
        try await withKitServer(photos: 250) { _, client, _ in
            let sizes = try await PageStream<Photo>(client: client).reduce(into: [Int]()) { $0.append($1.data.count) }
            #expect(sizes == [100, 100, 50])
            let tags = try await TagStream(client: client, pageSize: 2).reduce(into: [PhotoPickKit.Tag]()) { $0.append($1) }
            #expect(tags.count == 7)
        }
    }

    @Test func cancellingTheConsumerStopsTheWalk() async throws {
        try await withKitServer(photos: 5_000) { _, client, log in
            let task = Task {
                var count = 0
                var iterator = PhotoStream(client: client).makeAsyncIterator()
                defer { _ = iterator }
                do {
                    while try await iterator.next() != nil {
                        count += 1
                        if count == 250 { withUnsafeCurrentTask { $0?.cancel() } }
                    }
                } catch {
                    // Cancelled: the page fetched ahead ends (answered or cancelled) before the count is read.
                    await iterator.fetchAheadAnswered()
                    throw error
                }
                return count
            }
            let result = await task.result
            let pages = log.requests("GET /api/v1/photos").count
            #expect(pages <= 4, "the walk stopped near where it was cancelled, not at page 50")
            if case .success(let count) = result { #expect(count <= 400) }
        }
    }

    @Test func aRefusedCursorSaysWhereTheWalkGot() async throws {
        // Restarting the server on the same port with a new library invalidates the old cursors.
        let key = try KeySpec(parsing: "pp_test_walker")
        let firstLog = LineLog()
        let first = try await TestServer.start(photos: 500, seed: 1) { $0.keys = [key]; $0.requestLog = { firstLog.append($0) } }
        let port = first.port
        let client = APIClient.forTesting(first)
        var iterator = PhotoStream(client: client).makeAsyncIterator()
        var delivered: [Int] = []
        for _ in 0..<200 { delivered.append(try #require(try await iterator.next()).id) }
        // The third page, fetched ahead, comes from the first server.
        await iterator.fetchAheadAnswered()
        #expect(firstLog.requests("GET /api/v1/photos").count == 3)
        await first.stop()
        let second = try await TestServer.start(photos: 500, seed: 2) { $0.port = port; $0.keys = [key] }
        do {
            while let photo = try await iterator.next() { delivered.append(photo.id) }
            Issue.record("the walk should have been refused")
        } catch let error as InvalidCursorError {
            #expect(error.deliveredCount == delivered.count)
            #expect(error.lastDeliveredID == delivered.last)
            #expect(error.underlying.code == .invalidCursor)
        }
        try await client.shutdown()
        await second.stop()
    }

    @Test func aWalkResumesFromTheCursorAnEarlierOneStoppedAt() async throws {
        try await withKitServer(photos: 250) { _, client, _ in
            var first = PageStream<Photo>(client: client).makeAsyncIterator()
            let page = try #require(try await first.next())
            let cursor = try #require(page.pagination.nextCursor)
            var ids: [Int] = []
            for try await resumed in PageStream<Photo>(client: client, startingAt: cursor) { ids += resumed.data.map(\.id) }
            #expect(ids == Array(101...250))
        }
    }

    @Test func aRefusedStartCursorIsAnInvalidCursorError() async throws {
        try await withKitServer(photos: 50) { _, client, _ in
            do {
                for try await _ in PageStream<Photo>(client: client, startingAt: "not-a-cursor") {}
                Issue.record("the cursor should have been refused")
            } catch let error as InvalidCursorError {
                #expect(error.deliveredCount == 0)
                #expect(error.underlying.code == .invalidCursor)
            }
        }
    }
}
