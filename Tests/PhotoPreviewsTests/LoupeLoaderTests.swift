import Foundation
import PhotoPreviews
import PhotoImaging
import PhotoPickKit
@testable import PhotoPickServer
import PhotoPickTestSupport
import Synchronization
import Testing

/// The loupe's loader against the real embedded server: the original fetched by the resumable download,
/// a rendition standing in until it arrives, the view decoded from the original one for one, the
/// originals kept for next time, and a photo the server no longer has.
struct LoupeLoaderTests {
    /// Wants `request` and returns its frame once `done` holds of it, looking again at each of the
    /// loader's updates (never on a timer).
    private func waitFor(_ loader: LoupeLoader, _ request: LoupeRequest, _ done: (LoupeFrame, OriginalStatus?) -> Bool) async throws -> LoupeFrame {
        await loader.want([request])
        func found() -> LoupeFrame? {
            guard let frame = loader.store.frame(photoID: request.photo.id), frame.request == request,
                  done(frame, loader.store.status(photoID: request.photo.id)) else { return nil }
            return frame
        }
        if let frame = found() { return frame }
        for await _ in loader.updates {
            if let frame = found() { return frame }
        }
        Issue.record("no such frame: \(String(describing: loader.store.frame(photoID: request.photo.id)?.source)), \(String(describing: loader.store.status(photoID: request.photo.id)))")
        throw CancellationError()
    }

    private func rmse(_ a: PreviewImage, _ b: PreviewImage) -> Double {
        guard a.size == b.size else { return .infinity }
        let sum = zip(a.pixels, b.pixels).reduce(0.0) { $0 + pow(Double($1.0) - Double($1.1), 2) }
        return (sum / Double(a.pixels.count)).squareRoot()
    }

    /// The first photo of the demo library (seed 7, as `TestServer`'s) whose original is `kind`.
    /// Enough of the demo library to hold an original of every kind (exports of some kinds are rare).
    static let libraryCount = 3000

    static func firstPhoto(of kind: OriginalKind) -> Int {
        var found: Int?
        DemoLibraryGenerator(count: Self.libraryCount, seed: 7, megapixels: 1).forEachPhoto { photo in
            if found == nil, photo.mimeType == kind.mimeType { found = Int(photo.id) }
        }
        return found ?? 0
    }

    /// On an original of each kind: JPEG, HEIC, DNG (its full-size preview) and PNG.
    @Test(arguments: OriginalKind.allCases)
    func aRenditionStandsInThenTheOriginalShowsOneForOneAndIsKeptForNextTime(kind: OriginalKind) async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let id = Self.firstPhoto(of: kind)
        // The library up to that photo: the demo's first photos are the same whatever its size.
        try await TestServer.with(photos: id) { server, _ in
            let client = APIClient.forTesting(server)
            let photo = try await client.send(API.photo(id: id))
            #expect(photo.mimeType == kind.mimeType)
            let gate = Gate()
            let renditions = try PreviewDiskCache(library: "t", directory: directory.appending(path: "previews"))
            let originals = try PreviewDiskCache(library: "t", directory: directory.appending(path: "originals"))
            let partials = directory.appending(path: "partial")
            let loader = LoupeLoader(disk: renditions, originals: originals, render: Pixels.render, clock: Timekeeper(TestClock())) { id, size async throws(APIError) in
                try await client.fetchVariant(photoID: id, size: size)
            } fetchOriginal: { photo, progress in
                await gate.wait()
                let result = try await client.download(photo: photo, size: .original, into: partials, progress: progress)
                defer { try? FileManager.default.removeItem(at: result.fileURL) }
                return try [UInt8](Data(contentsOf: result.fileURL))
            }
            let request = LoupeRequest(photo: photo, centre: UnitPoint(x: 0.3, y: 0.6), box: PixelSize(width: 320, height: 200))
            let standIn = try await waitFor(loader, request) { frame, _ in frame.source == .standIn(.a4) }
            #expect(loader.store.status(photoID: id).map { if case .fetching = $0 { true } else { false } } == true, "the original is coming")
            await gate.open()
            let shown = try await waitFor(loader, request) { frame, status in frame.source == .original && status == .ready }
            // The original, decoded whole the other way, cut at the view: the same pixels.
            // The original itself (a rendition fetch asks for JPEG, which a HEIC, DNG or PNG is not).
            let again = try await client.download(photo: photo, size: .original, into: directory.appending(path: "again"))
            let bytes = try [UInt8](Data(contentsOf: again.fileURL))
            let picture = try OriginalDecoder().prepare(bytes)
            let full = try picture.region(x: 0, y: 0, width: picture.size.width, height: picture.size.height, decoder: PreviewDecoder()).image
            #expect(shown.imageSize == full.size)
            let view = shown.view
            #expect(view.width == 320 && view.height == 200)
            #expect(view.x == Int((0.3 * Double(full.width)).rounded()) - 160 && view.y == Int((0.6 * Double(full.height)).rounded()) - 100)
            var cut: [UInt8] = []
            for row in view.y..<(view.y + view.height) {
                let start: Int = (row * full.width + view.x) * 3
                cut += full.pixels[start..<(start + view.width * 3)]
            }
            let expected = PreviewImage(width: view.width, height: view.height, pixels: cut)
            #expect(shown.size == PixelSize(width: view.width, height: view.height) && Pixels.of(shown) == expected, "one image pixel per screen pixel, exactly the original's")
            // Its focus, measured on the view shown at 100% (the stand-in's never is).
            var focuses = loader.focusScores.makeAsyncIterator()
            let focus = try #require(await focuses.next())
            #expect(focus.photoID == id && focus.view == view && focus.imageSize == full.size)
            #expect(focus.score == FocusScore.measureAtFullSize(expected), "taken on the pixels shown, one for one")
            // The a4 rendition of a 0.3 MP original (`TestServer`'s) is the picture at its own size, so it stood in closely.
            let stoodIn = try #require(Pixels.of(standIn))
            #expect(rmse(stoodIn, expected) < 12, "\(rmse(stoodIn, expected))")
            #expect(standIn.view == view)
            await loader.stop()
            try await client.shutdown()
        }
        // The server is gone: the original comes from the cache, without a request.
        let offline = LoupeLoader(
            disk: try PreviewDiskCache(library: "t", directory: directory.appending(path: "previews")),
            originals: try PreviewDiskCache(library: "t", directory: directory.appending(path: "originals")), render: nil,
            clock: Timekeeper(TestClock())
        ) { _, _ async throws(APIError) in
            throw APIError.transport(host: "nowhere", reason: "offline")
        } fetchOriginal: { _, _ in
            throw APIError.transport(host: "nowhere", reason: "offline")
        }
        var photo = Photo(id: id, filename: "x.jpg", bytes: 1, takenAt: nil, tagIDs: [])
        photo.width = 1
        let request = LoupeRequest(photo: photo, centre: .centre, box: PixelSize(width: 100, height: 80))
        _ = try await waitFor(offline, request) { frame, status in frame.source == .original && status == .ready }
        // A cached original decoded whole first (an AVIF) has a rendition stand in meanwhile; one read a
        // band, a region, a tile or rows at a time shows its first view as soon (a DNG, TIFF by its bytes,
        // is shown from its preview; the demo's HEIC is a grid of tiles, as a phone's; its PNG 8-bit RGB).
        let decodedWhole: Set<OriginalKind> = [.avif]
        #expect(await offline.standInsStarted == (decodedWhole.contains(kind) ? 1 : 0))
        await offline.stop()
    }

    @Test func aPhotoTheServerNoLongerHasKeepsTheCachedRenditionWithTheReason() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestServer.with(photos: 10) { server, _ in
            let client = APIClient.forTesting(server)
            let photo = try await client.send(API.photo(id: 4))
            let renditions = try PreviewDiskCache(library: "t", directory: directory.appending(path: "previews"))
            // The side pane fetched its preview earlier; then someone deleted the photo in the web app.
            let web = try await client.fetchVariant(photoID: 4, size: .web)
            try renditions.store(photoID: 4, variant: "web", etag: web.etag, bytes: web.bytes)
            try await client.send(API.deletePhoto(id: 4))
            let loader = LoupeLoader(
                client: client, partials: directory.appending(path: "partial"), disk: renditions, originals: nil, render: nil
            )
            let request = LoupeRequest(photo: photo, centre: .centre, box: PixelSize(width: 200, height: 150))
            let frame = try await waitFor(loader, request) { _, status in if case .failed = status { true } else { false } }
            #expect(frame.source == .standIn(.web), "the cached rendition stays")
            guard case .failed(let reason)? = loader.store.status(photoID: 4) else { Issue.record("no reason"); return }
            #expect(reason.hasPrefix("original unavailable: ") && reason.contains("Not found: it was deleted"), "\(reason)")
            #expect(listing(directory.appending(path: "partial")).isEmpty, "no file left behind")
            await loader.stop()
            try await client.shutdown()
        }
    }

    /// For a slow renderer (symbols, sixel) the views one pan away are rendered once the view shows: a pan
    /// to one, and back, is shown without a decode or a render, and shows exactly the original's pixels.
    @Test func aPanToAViewRenderedAheadIsShownWithoutRenderingAgain() async throws {
        let original = TestJPEG.detailed()
        let full = try PreviewDecoder().decode(original, fitting: PixelSize(width: 10_000, height: 10_000)).image
        let renders = Mutex(0)
        let loader = LoupeLoader(disk: nil, originals: nil, render: { request, image, source in
            renders.withLock { $0 += 1 }
            return Pixels.render(request, image, source)
        }, rendersAhead: true, clock: Timekeeper(TestClock())) { _, _ async throws(APIError) in
            throw APIError.transport(host: "nowhere", reason: "no rendition needed")
        } fetchOriginal: { _, _ in
            original
        }
        var photo = Photo(id: 7, filename: "x.jpg", bytes: Int64(original.count), takenAt: nil, tagIDs: [])
        photo.width = full.width
        photo.height = full.height
        let box = PixelSize(width: 90, height: 60)
        // A centre that puts the view's corner on whole pixels, as the loupe's keys move it.
        func request(x: Int, y: Int) -> LoupeRequest {
            LoupeRequest(photo: photo, centre: UnitPoint(x: Double(x + 45) / Double(full.width), y: Double(y + 30) / Double(full.height)), box: box)
        }
        func expectOriginal(_ frame: LoupeFrame) {
            let view = frame.view
            var pixels: [UInt8] = []
            for row in view.y..<(view.y + view.height) {
                let start: Int = (row * full.width + view.x) * 3
                pixels += full.pixels[start..<(start + view.width * 3)]
            }
            let cut = PreviewImage(width: view.width, height: view.height, pixels: pixels)
            #expect(Pixels.of(frame) == cut, "the original's pixels at \(view)")
        }
        let first = try await waitFor(loader, request(x: 100, y: 80)) { frame, _ in frame.source == .original }
        expectOriginal(first)
        // The view, then its four neighbours.
        await loader.finishWork()
        #expect(renders.withLock { $0 } == 5, "\(renders.withLock { $0 }) renders")
        let right = try await waitFor(loader, request(x: 130, y: 80)) { frame, _ in frame.source == .original }
        #expect(right.view.x == 130)
        expectOriginal(right)
        #expect(await loader.shownFromAhead == 1)
        // Its three other neighbours: the view just left is kept.
        await loader.finishWork()
        #expect(renders.withLock { $0 } == 8, "\(renders.withLock { $0 }) renders")
        let back = try await waitFor(loader, request(x: 100, y: 80)) { frame, _ in frame.source == .original }
        expectOriginal(back)
        #expect(await loader.shownFromAhead == 2, "the view just left was kept for the way back")
        // And again after the pan back, and nothing more once they are made.
        await loader.finishWork()
        #expect(renders.withLock { $0 } == 11, "\(renders.withLock { $0 }) renders")
        await loader.stop()
    }
}

/// A rendering that is the view's pixels themselves, so a test can read what a frame showed.
struct Pixels: PreviewRendering {
    let image: PreviewImage
    var byteCount: Int { image.pixels.count }

    static let render: PreviewLoader.Render = { _, image, _ in Pixels(image: image) }

    static func of(_ frame: LoupeFrame) -> PreviewImage? {
        (frame.rendering as? Pixels)?.image
    }
}
