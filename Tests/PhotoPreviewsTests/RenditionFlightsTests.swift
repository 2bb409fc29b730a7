import Foundation
@testable import PhotoPreviews
import PhotoPickKit
import PhotoPickTestSupport
import Synchronization
import Testing

/// Fetches that outlive their want: joined while under way, finished into the disk cache, and bounded.
struct RenditionFlightsTests {
    private let directory = TestServer.temporaryDirectory()

    private func key(_ id: Int) -> RenditionFlights.Key { .init(photoID: id, variant: "web") }

    @Test func aFetchUnderWayIsJoinedNotStartedAgain() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let flights = RenditionFlights(disk: try PreviewDiskCache(library: "t", directory: directory))
        let gate = Gate(), fetches = Mutex(0)
        let fetch: @Sendable () async throws(APIError) -> FetchedVariant = {
            fetches.withLock { $0 += 1 }
            await gate.wait()
            return FetchedVariant(bytes: [1, 2, 3], etag: "\"a\"")
        }
        let first = Task { try await flights.fetch(key(1), fetch) }
        let second = Task { try await flights.fetch(key(1), fetch) }
        // Both wait for one flight before it may land.
        await flights.waitUntil { [key = key(1)] in $0.waiters[key] == 2 }
        await gate.open()
        #expect(try await first.value.bytes == [1, 2, 3])
        #expect(try await second.value.bytes == [1, 2, 3])
        #expect(fetches.withLock { $0 } == 1)
    }

    @Test func fetchesNoOneWaitsForFinishIntoTheDiskUpToTheBound() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try PreviewDiskCache(library: "t", directory: directory)
        let flights = RenditionFlights(disk: disk, detachedLimit: 2)
        let gate = Gate()
        for id in 1...4 {
            // The want goes at once; its fetch, held at the gate, is left to finish or cancelled.
            let want = Task {
                try await flights.fetch(key(id)) { () async throws(APIError) in
                    await gate.wait()
                    if Task.isCancelled { throw .cancelled }
                    return FetchedVariant(bytes: [UInt8(id)], etag: "\"\(id)\"")
                }
            }
            want.cancel()
            await #expect(throws: APIError.self) { try await want.value }
        }
        #expect(await flights.detachedCount == 2)
        await gate.open()
        // A flight lands after its rendition is filed.
        await flights.waitUntil { $0.flying == 0 }
        #expect(disk.usage.count == 2)
        #expect(disk.bytes(photoID: 1, variant: "web")?.bytes == [1])
        #expect(disk.bytes(photoID: 2, variant: "web")?.bytes == [2])
        #expect(await flights.detachedCount == 0)
        #expect(disk.bytes(photoID: 3, variant: "web") == nil && disk.bytes(photoID: 4, variant: "web") == nil, "over the bound: cancelled")
    }

    @Test func withoutADiskNothingFinishesUnwatched() async throws {
        let flights = RenditionFlights(disk: nil)
        let gate = Gate(), ended = Gate(), cancelled = Mutex(false)
        let want = Task {
            try await flights.fetch(key(1)) { () async throws(APIError) in
                await gate.wait()
                cancelled.withLock { $0 = Task.isCancelled }
                await ended.open()
                throw .cancelled
            }
        }
        want.cancel()
        _ = await want.result
        #expect(await flights.detachedCount == 0)
        await gate.open()
        await ended.wait()
        #expect(cancelled.withLock { $0 })
    }
}
