import Foundation
import PhotoPreviews
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Synchronization
import Testing

struct LRUCacheTests {
    @Test func keepsWithinItsCostEvictingTheLeastRecentlyUsed() {
        var cache = LRUCache<String, Int>(costLimit: 100)
        #expect(cache.insert(1, for: "a", cost: 40).isEmpty)
        #expect(cache.insert(2, for: "b", cost: 40).isEmpty)
        #expect(cache.value(for: "a") == 1)  // a is now newer than b
        let evicted = cache.insert(3, for: "c", cost: 40)
        #expect(evicted.map(\.key) == ["b"])
        #expect(cache.totalCost == 80 && cache.keysByAge == ["a", "c"])
        // Replacing a value replaces its cost.
        cache.insert(4, for: "a", cost: 10)
        #expect(cache.totalCost == 50 && cache.keysByAge == ["c", "a"])
        // A value larger than the whole limit is not kept, and nothing else is lost for it.
        #expect(cache.insert(5, for: "huge", cost: 101).map(\.key) == ["huge"])
        #expect(cache.count == 2 && cache.peek("huge") == nil)
        #expect(cache.removeValue(for: "c") == 3 && cache.keysByAge == ["a"])
    }

    @Test func aLongRunStaysConsistent() {
        var cache = LRUCache<Int, Int>(costLimit: 1_000)
        for index in 0..<10_000 {
            cache.insert(index, for: index % 300, cost: 7 + index % 13)
            if index % 3 == 0 { _ = cache.value(for: (index * 7) % 300) }
            #expect(cache.totalCost <= 1_000)
        }
        #expect(cache.keysByAge.count == cache.count)
    }
}

struct PreviewStoreTests {
    private func image(_ width: Int, _ height: Int) -> PreviewImage {
        PreviewImage(width: width, height: height, pixels: Array(repeating: 9, count: width * height * 3))
    }

    @Test func theMemoryCacheIsBoundedInBytes() {
        // Each 10×10 preview is 300 bytes of pixels (and 64 of bookkeeping): three fit in 1,100.
        let store = PreviewStore(byteLimit: 1_100, clock: Timekeeper(TestClock()))
        let requests = (1...4).map { PreviewRequest(photoID: $0, box: PixelSize(width: 10, height: 10)) }
        for request in requests.prefix(3) { store.store(.loaded(image(10, 10)), for: request) }
        #expect(store.usage.count == 3 && store.usage.bytes == 3 * 364)
        _ = store.state(for: requests[0])  // used: now the newest
        store.store(.loaded(image(10, 10)), for: requests[3])
        #expect(store.state(for: requests[1]) == nil)
        #expect(store.state(for: requests[0]) != nil && store.state(for: requests[3]) != nil)
        #expect(store.usage.bytes <= 1_100)
    }

    @Test func theSamePhotoAtAnotherSizeIsAnotherEntry() {
        let store = PreviewStore(clock: Timekeeper(TestClock()))
        store.store(.loaded(image(10, 10)), for: PreviewRequest(photoID: 1, box: PixelSize(width: 10, height: 10)))
        #expect(store.state(for: PreviewRequest(photoID: 1, box: PixelSize(width: 20, height: 20))) == nil)
    }

    @Test func aFetchThatFailedIsAskedForAgainOnlyOnceItsDelayHasPassed() {
        let clock = TestClock()
        let store = PreviewStore(clock: Timekeeper(clock))
        let unavailable = PreviewRequest(photoID: 1, box: PixelSize(width: 10, height: 10))
        let damaged = PreviewRequest(photoID: 2, box: PixelSize(width: 10, height: 10))
        store.store(.failed(.unavailable("the server did not answer")), for: unavailable)
        store.store(.failed(.notJPEG), for: damaged)
        #expect(store.holds(unavailable) && store.holds(damaged))
        clock.advance(by: .seconds(14))
        #expect(store.holds(unavailable), "within 15 s the failure stands")
        clock.advance(by: .seconds(1))
        #expect(!store.holds(unavailable), "then the preview is asked for again")
        #expect(store.holds(damaged), "a damaged file is remembered for the session")
        #expect(store.state(for: unavailable) != nil, "the failure stays on show until a new try replaces it")
    }
}

struct PreviewDiskCacheTests {
    private let directory = TestServer.temporaryDirectory()

    private func bytes(_ count: Int, _ fill: UInt8) -> [UInt8] { Array(repeating: fill, count: count) }

    private func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
    }

    @Test func storesReadsAndKeepsWithinItsBytesEvictingTheLeastRecentlyUsed() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try PreviewDiskCache(library: "test", directory: directory, byteLimit: 1_000)
        try cache.store(photoID: 1, variant: "web", etag: "\"a\"", bytes: bytes(400, 1))
        try cache.store(photoID: 2, variant: "web", etag: "\"b\"", bytes: bytes(400, 2))
        #expect(cache.bytes(photoID: 1, variant: "web")?.bytes == bytes(400, 1))  // 1 is now newer than 2
        try cache.store(photoID: 3, variant: "web", etag: "\"c\"", bytes: bytes(400, 3))
        #expect(cache.bytes(photoID: 2, variant: "web") == nil)
        #expect(cache.bytes(photoID: 1, variant: "web") != nil && cache.bytes(photoID: 3, variant: "web") != nil)
        #expect(cache.usage == (bytes: 800, count: 2))
        #expect(files().count == 2, "the evicted file is gone from disk")
        #expect(try FileManager.default.attributesOfItem(atPath: directory.path)[.posixPermissions] as? Int == 0o700)
    }

    @Test func aNewETagReplacesTheOldFileAndAnOldETagMisses() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try PreviewDiskCache(library: "test", directory: directory)
        try cache.store(photoID: 7, variant: "web", etag: "\"v1\"", bytes: bytes(10, 1))
        #expect(cache.bytes(photoID: 7, variant: "web", etag: "\"v1\"")?.bytes == bytes(10, 1))
        #expect(cache.bytes(photoID: 7, variant: "web", etag: "\"v2\"") == nil, "a different version is a miss")
        try cache.store(photoID: 7, variant: "web", etag: "\"v2\"", bytes: bytes(12, 2))
        #expect(cache.bytes(photoID: 7, variant: "web", etag: "\"v1\"") == nil)
        #expect(cache.bytes(photoID: 7, variant: "web")?.bytes == bytes(12, 2))
        #expect(files().count == 1 && cache.usage == (bytes: 12, count: 1))
        // Another variant of the same photo is its own entry.
        try cache.store(photoID: 7, variant: "fhd", etag: nil, bytes: bytes(5, 3))
        #expect(cache.bytes(photoID: 7, variant: "fhd")?.entry.tag == "none")
        #expect(cache.usage.count == 2)
    }

    @Test func aReopenedCacheKeepsItsFilesTheirOrderAndItsBound() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            let cache = try PreviewDiskCache(library: "test", directory: directory, byteLimit: 1_000)
            for id in 1...3 {
                try cache.store(photoID: id, variant: "web", etag: "\"\(id)\"", bytes: bytes(300, UInt8(id)))
                // Modification times record use; make them distinct.
                let path = directory.appending(path: files().first { $0.contains("-\(id)-web-") }!).path
                try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: Double(id - 10))], ofItemAtPath: path)
            }
        }
        FileManager.default.createFile(atPath: directory.appending(path: "x.jpg.tmp-1").path, contents: Data([1]))
        let other = try PreviewDiskCache(library: "another library", directory: directory, byteLimit: 1_000)
        #expect(other.bytes(photoID: 1, variant: "web") == nil, "photo ids belong to their library")
        #expect(!files().contains("x.jpg.tmp-1"), "an unfinished write is removed")
        let reopened = try PreviewDiskCache(library: "test", directory: directory, byteLimit: 700)
        // 900 bytes over a 700 limit: the least recently used, photo 1, goes.
        #expect(reopened.usage == (bytes: 600, count: 2))
        #expect(reopened.bytes(photoID: 1, variant: "web") == nil)
        #expect(reopened.bytes(photoID: 3, variant: "web")?.bytes == bytes(300, 3))
    }

    @Test func aFileDamagedOnDiskIsAMissNotBadBytes() throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try PreviewDiskCache(library: "test", directory: directory)
        try cache.store(photoID: 1, variant: "web", etag: "\"a\"", bytes: bytes(100, 1))
        let path = directory.appending(path: try #require(files().first)).path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect(cache.bytes(photoID: 1, variant: "web") == nil)
        #expect(files().isEmpty && cache.usage.count == 0)
    }
}

/// The loader against the real embedded server. Its debounce runs on a test clock: zero where the test
/// is not about it, advanced by the test where it is; it waits for previews on the loader's updates.
struct PreviewLoaderTests {
    private let box = PixelSize(width: 53, height: 30)

    /// A loader fetching through `client`, on `clock`, with no debounce unless given.
    private func loader(
        _ client: APIClient, disk: PreviewDiskCache? = nil, clock: TestClock = TestClock(), debounce: Duration = .zero,
        asked: @escaping @Sendable (DownloadSize) -> Void = { _ in }
    ) -> PreviewLoader {
        PreviewLoader(disk: disk, clock: Timekeeper(clock), debounce: debounce) { id, size async throws(APIError) in
            asked(size)
            return try await client.fetchVariant(photoID: id, size: size)
        }
    }

    @Test func fetchesThroughTheClientDecodesToTheBoxAndFilesTheVariantOnDisk() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let request = PreviewRequest(photoID: 4, box: box)
        try await TestServer.with(photos: 10) { server, _ in
            let client = APIClient.forTesting(server)
            let loader = loader(client, disk: try PreviewDiskCache(library: "t", directory: directory))
            await loader.want([request])
            guard case .loaded(let image) = await loader.landed(request) else { Issue.record("not loaded"); return }
            #expect(image.width <= box.width && image.height <= box.height)
            #expect(image.width == box.width || image.height == box.height, "fitted to the box")
            await loader.stop()
            try await client.shutdown()
        }
        // The server is gone: a new loader on the same disk cache still has the preview, at a new size too.
        let offline = PreviewLoader(disk: try PreviewDiskCache(library: "t", directory: directory), clock: Timekeeper(TestClock()), debounce: .zero) {
            _, _ async throws(APIError) in throw APIError.transport(host: "nowhere", reason: "offline")
        }
        let larger = PreviewRequest(photoID: 4, box: PixelSize(width: 100, height: 80))
        await offline.want([larger])
        guard case .loaded(let image) = await offline.landed(larger) else { Issue.record("not from disk"); return }
        #expect(image.width == 100 || image.height == 80)
    }

    /// A full-screen preview on a large screen comes from `fhd` or `a4`; its focus score still comes from
    /// `web`, fetched for it, so every score in a burst is measured on the same rendition.
    @Test func aPhotoPreviewedFromALargerRenditionIsScoredOnItsWebOne() async throws {
        try await TestServer.with(photos: 5) { server, _ in
            let client = APIClient.forTesting(server)
            let asked = Mutex<[DownloadSize]>([])
            let loader = loader(client) { size in asked.withLock { $0.append(size) } }
            let large = PreviewRequest(photoID: 3, box: PixelSize(width: 1600, height: 1000))
            #expect(PreviewLoader.variant(for: large.box) == .fhd)
            await loader.want([large])
            guard case .loaded = await loader.landed(large) else { Issue.record("not loaded"); return }
            var scores = loader.focusScores.makeAsyncIterator()
            let score = try #require(await scores.next(), "no focus score came")
            let web = try await client.fetchVariant(photoID: 3, size: .web)
            let expected = try #require(FocusScore.measure(web.bytes))
            #expect(score.photoID == 3)
            #expect(score.score == expected, "the web rendition's score, not the fhd one's")
            #expect(asked.withLock { $0 } == [.fhd, .web])
            await loader.stop()
            #expect(await scores.next() == nil, "one score, for the one photo")
            try await client.shutdown()
        }
    }

    @Test func workNoLongerWantedIsCancelledAndNeverLands() async throws {
        // Every request stalls on the server's clock until the test lets time pass.
        let serverClock = TestClock()
        try await TestServer.with(photos: 10, { configuration in
            configuration.faultRate = 1
            configuration.faults = [.slow]
            configuration.latency = .milliseconds(800)
            configuration.clock = serverClock
        }) { server, _ in
            let client = APIClient.forTesting(server)
            let loader = loader(client)
            let first = PreviewRequest(photoID: 1, box: box), second = PreviewRequest(photoID: 2, box: box)
            await loader.want([first])
            // The first's request has reached the server, and stalls there.
            await serverClock.sleepers(atLeast: 1)
            #expect(await loader.started == 1)
            await loader.want([second])
            #expect(await loader.cancelled == 1)
            // Both stalls end at once: had the first still been awaited, its answer would come with the second's.
            serverClock.runFree()
            guard case .loaded = await loader.landed(second) else { Issue.record("second not loaded"); return }
            #expect(await loader.started == 2)
            // Nothing lands once stopped, so what is not here by then never landed.
            await loader.stop()
            #expect(loader.store.state(for: first) == nil, "the cancelled preview never landed")
            try await client.shutdown()
        }
    }

    /// j/k over the same four photos against a server that stalls every request: each want is cancelled
    /// long before its fetch could land, yet each preview costs the server one redirect and one file.
    @Test func aCursorMovingBackAndForthCostsEachPreviewOnce() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = LineLog()
        // The server's stalls and the loader's debounce run on one clock, which the keys move on.
        let clock = TestClock()
        try await TestServer.with(photos: 10, { configuration in
            configuration.faultRate = 1
            configuration.faults = [.slow]
            configuration.latency = .milliseconds(150)
            configuration.requestLog = { log.append($0) }
            configuration.clock = clock
        }) { server, _ in
            let client = APIClient.forTesting(server)
            let loader = loader(client, disk: try PreviewDiskCache(library: "t", directory: directory), clock: clock, debounce: .milliseconds(5))
            let requests = (1...4).map { PreviewRequest(photoID: $0, box: box) }
            // A key every 40 ms, down and up again, for ten rounds: a want lives far shorter than a fetch
            // (two requests of 150 ms each).
            for _ in 0..<10 {
                for request in requests + requests.reversed() {
                    await loader.want([request])
                    clock.advance(by: .milliseconds(40))
                }
            }
            await loader.want(requests, shown: 4)
            clock.runFree()
            for request in requests {
                guard case .loaded = await loader.landed(request) else { Issue.record("\(request.photoID) not loaded"); return }
            }
            for id in 1...4 {
                let redirects = log.lines.count { $0.hasPrefix("GET /api/v1/photos/\(id)/download") }
                let files = log.lines.count { $0.hasPrefix("GET /files/\(id)/web") }
                #expect(redirects == 1 && files == 1, "photo \(id): \(redirects) redirects and \(files) files")
            }
            await loader.stop()
            try await client.shutdown()
        }
    }

    @Test func keysThatRepeatFasterThanTheDebounceStartNoWork() async throws {
        try await TestServer.with(photos: 30) { server, _ in
            let client = APIClient.forTesting(server)
            let clock = TestClock()
            let loader = loader(client, clock: clock, debounce: .milliseconds(100))
            // Holding j: a new photo every 10 ms, each wanted with the next three ahead of it.
            for id in 1...20 {
                await loader.want((id...(id + 3)).map { PreviewRequest(photoID: $0, box: box) })
                clock.advance(by: .milliseconds(10))
            }
            #expect(await loader.started == 0, "no backlog while the key repeats")
            // The key is let go: the last list holds still for the debounce.
            await clock.sleepers(atLeast: 1)
            clock.advance(by: .milliseconds(100))
            let last = PreviewRequest(photoID: 20, box: box), ahead = PreviewRequest(photoID: 23, box: box)
            guard case .loaded = await loader.landed(last) else { Issue.record("not loaded"); return }
            // The current photo first, then the three ahead; nothing for the photos passed on the way.
            guard case .loaded = await loader.landed(ahead) else { Issue.record("not loaded"); return }
            #expect(await loader.started == 4)
            #expect(loader.store.state(for: PreviewRequest(photoID: 10, box: box)) == nil)
            await loader.stop()
            try await client.shutdown()
        }
    }

    @Test func aDamagedFileInTheDiskCacheIsFetchedAgain() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let disk = try PreviewDiskCache(library: "t", directory: directory)
        try disk.store(photoID: 2, variant: "web", etag: "\"old\"", bytes: Array("not a picture".utf8))
        try await TestServer.with(photos: 5) { server, _ in
            let client = APIClient.forTesting(server)
            let loader = loader(client, disk: disk)
            let request = PreviewRequest(photoID: 2, box: box)
            await loader.want([request])
            guard case .loaded = await loader.landed(request) else { Issue.record("not fetched again"); return }
            #expect(disk.bytes(photoID: 2, variant: "web")?.bytes.prefix(2) == [0xFF, 0xD8])
            await loader.stop()
            try await client.shutdown()
        }
    }

    @Test func aStoppedLoaderStaysStopped() async throws {
        let clock = TestClock()
        let loader = PreviewLoader(disk: nil, clock: Timekeeper(clock), debounce: .milliseconds(1)) { _, _ async throws(APIError) in
            FetchedVariant(bytes: [], etag: nil)
        }
        await loader.stop()
        let request = PreviewRequest(photoID: 1, box: box)
        await loader.want([request])
        #expect(clock.sleeperCount == 0, "no debounce even began")
        #expect(await loader.started == 0 && loader.store.state(for: request) == nil)
    }

    @Test func aFailedFetchIsAnUnavailablePreviewNotACrash() async throws {
        try await TestServer.with(photos: 3) { server, _ in
            let client = APIClient.forTesting(server)
            let loader = loader(client)
            let missing = PreviewRequest(photoID: 404, box: box)
            await loader.want([missing])
            guard case .failed(.unavailable(let message)) = await loader.landed(missing) else { Issue.record("expected unavailable"); return }
            #expect(!message.isEmpty)
            await loader.stop()
            try await client.shutdown()
        }
    }
}

extension PreviewLoader {
    /// The preview of `request` once it is in the store, looking again at each of `updates`' wake-ups;
    /// nil when the loader stops first.
    func landed(_ request: PreviewRequest) async -> PreviewState? {
        if let state = store.state(for: request) { return state }
        for await _ in updates {
            if let state = store.state(for: request) { return state }
        }
        return store.state(for: request)
    }
}
