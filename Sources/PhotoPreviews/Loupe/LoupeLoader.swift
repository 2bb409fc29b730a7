import Foundation
import PhotoImaging
import PhotoPickKit

/// Makes the loupe's frames: fetches each wanted photo's original on demand through the user's lane,
/// with progress, while the largest cached rendition (else `a4`) stands in; then decodes only the band
/// around the view (`Loupe`, `PreviewDecoder.decodeRegion`), so a pan within it is a copy; for a
/// renderer slower than a pan (symbols, sixel), the views one pan away are rendered while nothing is
/// asked, so a pan to one is shown at once.
public actor LoupeLoader {
    /// Gets a photo's original into memory, reporting progress; normally a resumable file download.
    public typealias FetchOriginal = @Sendable (_ photo: Photo, _ progress: @escaping @Sendable (DownloadProgress) -> Void) async throws -> [UInt8]

    /// The newest frames, for the views.
    public nonisolated let store: LoupeStore
    /// Yields when a frame lands or an original's progress moves.
    public nonisolated let updates: AsyncStream<Void>

    private let fetchVariant: PreviewLoader.Fetch
    private let fetchOriginal: FetchOriginal
    /// Renditions, shared with the previews; the largest one here stands in without a request.
    private let disk: PreviewDiskCache?
    /// Originals already fetched.
    private let originals: PreviewDiskCache?
    private let render: PreviewLoader.Render?
    private let decoder = PreviewDecoder()
    private let continuation: AsyncStream<Void>.Continuation

    /// A picture to show from: its bytes and upright size.
    private struct Source: Sendable {
        let bytes: [UInt8]
        let size: PixelSize
        let kind: LoupeSource
    }

    private var wanted: [LoupeRequest] = []
    private var sources: [Int: Source] = [:]
    /// The band decoded from each original, kept so a pan inside it decodes nothing.
    private var loupes: [Int: Loupe] = [:]
    /// Whether the views one pan away are rendered in the background: for renderers slower than a pan
    /// (libchafa's symbols and sixel palette take tens of milliseconds for a full-screen view).
    private let rendersAhead: Bool
    /// Renderings of the views one pan away from each original's view (and of the view just left, for
    /// the way back), by the screen's box and the view: a pan to one is shown without decoding or rendering.
    private var ahead: [Int: (box: PixelSize, views: [Loupe.Region: any PreviewRendering])] = [:]
    /// Frames shown from `ahead`, for tests and the benchmark.
    public private(set) var shownFromAhead = 0

    /// How many views around a photo's view are rendered ahead now, for the benchmark.
    public func renderedAhead(photoID: Int) -> Int {
        ahead[photoID]?.views.count ?? 0
    }
    /// Fetches under way, each with a number that tells it from a later one for the same photo.
    private var originalTasks: [Int: (token: Int, task: Task<Void, Never>)] = [:]
    private var standInTasks: [Int: (token: Int, task: Task<Void, Never>)] = [:]
    private var nextToken = 0
    /// Photos whose original could not be had this time the loupe was open on them.
    private var failed: Set<Int> = []
    /// Photos whose original cannot be shown at all (not a JPEG, or damaged): not fetched again this session.
    private var unreadable: Set<Int> = []
    private var worker: Task<Void, Never>?
    private var pending = false
    private var isStopped = false

    /// - Parameters:
    ///   - disk: the renditions' cache, read for a stand-in and filled by its fetch.
    ///   - originals: a cache of originals, so a photo looked at again is not fetched again.
    ///   - render: makes a view ready for the screen, as the previews' renderer.
    ///   - rendersAhead: render the views one pan away in the background, for a renderer slower than a pan.
    public init(
        disk: PreviewDiskCache?, originals: PreviewDiskCache?, render: PreviewLoader.Render?, rendersAhead: Bool = false,
        fetchVariant: @escaping PreviewLoader.Fetch, fetchOriginal: @escaping FetchOriginal
    ) {
        store = LoupeStore()
        self.rendersAhead = rendersAhead
        self.disk = disk
        self.originals = originals
        self.render = render
        self.fetchVariant = fetchVariant
        self.fetchOriginal = fetchOriginal
        (updates, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// A loader that fetches through `client`: originals by the resumable download into `partials` (a
    /// folder of its own; each file leaves it once read, and a partial one left unfinished for a day is
    /// removed), renditions as the previews do.
    public init(
        client: APIClient, partials: URL, disk: PreviewDiskCache?, originals: PreviewDiskCache?, render: PreviewLoader.Render?, rendersAhead: Bool = false
    ) {
        Self.removeStale(in: partials, olderThan: 86_400)
        self.init(disk: disk, originals: originals, render: render, rendersAhead: rendersAhead) { photoID, size async throws(APIError) in
            try await client.fetchVariant(photoID: photoID, size: size)
        } fetchOriginal: { photo, progress in
            let result = try await client.download(photo: photo, size: .original, into: partials, progress: progress)
            defer { unlink(result.fileURL.path) }
            guard let bytes = FileBytes.read(result.fileURL.path) else { throw UnreadableDownload() }
            return bytes
        }
    }

    /// What the frame on screen shows, most important first: the photos' originals are fetched, and work
    /// on photos no longer wanted stops (a download keeps its partial file).
    public func want(_ requests: [LoupeRequest]) {
        guard !isStopped else { return }
        wanted = requests
        let ids = Set(requests.map(\.photo.id))
        for (id, work) in originalTasks where !ids.contains(id) { work.task.cancel(); originalTasks[id] = nil }
        for (id, work) in standInTasks where !ids.contains(id) { work.task.cancel(); standInTasks[id] = nil }
        sources = sources.filter { ids.contains($0.key) }
        loupes = loupes.filter { ids.contains($0.key) }
        ahead = ahead.filter { ids.contains($0.key) }
        failed = failed.intersection(ids)
        store.keep(only: ids)
        for request in requests where sources[request.photo.id]?.kind != .original {
            startOriginal(request.photo)
        }
        kick()
    }

    /// Stops all work; nothing lands in the store afterwards.
    public func stop() {
        isStopped = true
        for work in originalTasks.values { work.task.cancel() }
        for work in standInTasks.values { work.task.cancel() }
        worker?.cancel()
        originalTasks = [:]
        standInTasks = [:]
        ahead = [:]
        continuation.finish()
    }

    // MARK: Fetching

    /// The original from the cache, else fetched with progress while a rendition stands in; read off
    /// the actor, so a large file or a progressive header never holds up the views' wants.
    private func startOriginal(_ photo: Photo) {
        let id = photo.id
        guard originalTasks[id] == nil, !failed.contains(id), !unreadable.contains(id) else { return }
        if let type = photo.mimeType?.lowercased(), !type.isEmpty, type != "image/jpeg", type != "image/jpg" {
            unreadable.insert(id)
            // The loupe view sanitizes the reason it draws.
            store.set(.failed("the original is \(type), and the loupe reads JPEG originals only"), photoID: id)
            return startStandIn(photoID: id)
        }
        nextToken += 1
        let token = nextToken
        let store = store, throttle = ProgressThrottle(), continuation = continuation
        let fetch = fetchOriginal, originals = originals, decoder = decoder
        let progress: @Sendable (DownloadProgress) -> Void = { progress in
            store.set(.fetching(received: progress.receivedBytes, expected: progress.expectedBytes), photoID: id)
            if throttle.shouldReport() { continuation.yield() }
        }
        originalTasks[id] = (token, Task.detached { [weak self] in
            await RequestLane.$current.withValue(.user) {
                var bytes = originals?.bytes(photoID: id, variant: Self.originalVariant)?.bytes
                do {
                    if bytes == nil {
                        await self?.startStandIn(photoID: id)
                        store.set(.fetching(received: 0, expected: photo.bytes > 0 ? photo.bytes : nil), photoID: id)
                        continuation.yield()
                        let fetched = try await fetch(photo, progress)
                        try? originals?.store(photoID: id, variant: Self.originalVariant, etag: nil, bytes: fetched)
                        bytes = fetched
                    }
                    guard let bytes else { return }
                    let size = try Self.uprightSize(bytes, decoder: decoder)
                    await self?.arrived(Source(bytes: bytes, size: size, kind: .original), photoID: id, token: token)
                } catch let error as PreviewError {
                    originals?.remove(photoID: id, variant: Self.originalVariant)
                    await self?.originalFailed(photoID: id, token: token, reason: "original unreadable: \(error.description)", forGood: true)
                } catch {
                    if Task.isCancelled { return }
                    await self?.originalFailed(photoID: id, token: token, reason: "original unavailable: \(Self.describe(error))", forGood: false)
                }
            }
        })
    }

    /// The largest rendition cached, else `a4` fetched; only while no original is here.
    private func startStandIn(photoID id: Int) {
        guard sources[id] == nil, standInTasks[id] == nil, !isStopped else { return }
        nextToken += 1
        let token = nextToken
        let fetch = fetchVariant, disk = disk, decoder = decoder
        standInTasks[id] = (token, Task.detached { [weak self] in
            await RequestLane.$current.withValue(.user) {
                var found: (bytes: [UInt8], size: DownloadSize)?
                for size in [DownloadSize.a4, .fhd, .web] where found == nil {
                    if let cached = disk?.bytes(photoID: id, variant: size.rawValue) { found = (cached.bytes, size) }
                }
                if found == nil {
                    do throws(APIError) {
                        let fetched = try await fetch(id, .a4)
                        try? disk?.store(photoID: id, variant: DownloadSize.a4.rawValue, etag: fetched.etag, bytes: fetched.bytes)
                        found = (fetched.bytes, .a4)
                    } catch {
                        if Task.isCancelled { return }
                        return await self?.standInFailed(photoID: id, token: token, reason: error.userMessage) ?? ()
                    }
                }
                guard let found else { return }
                do throws(PreviewError) {
                    let size = try Self.uprightSize(found.bytes, decoder: decoder)
                    await self?.arrived(Source(bytes: found.bytes, size: size, kind: .standIn(found.size)), photoID: id, token: token)
                } catch {
                    disk?.remove(photoID: id, variant: found.size.rawValue)
                    await self?.standInFailed(photoID: id, token: token, reason: error.description)
                }
            }
        })
    }

    /// The upright size from the header (a one-pixel decode).
    private static func uprightSize(_ bytes: [UInt8], decoder: PreviewDecoder) throws(PreviewError) -> PixelSize {
        let info = try decoder.decodeRegion(bytes, x: 0, y: 0, width: 1, height: 1).info
        return info.orientation >= 5 ? PixelSize(width: info.sourceSize.height, height: info.sourceSize.width) : info.sourceSize
    }

    private func originalFailed(photoID id: Int, token: Int, reason: String, forGood: Bool) {
        guard originalTasks[id]?.token == token, !isStopped else { return }
        originalTasks[id] = nil
        failed.insert(id)
        if forGood { unreadable.insert(id) }
        store.set(.failed(reason), photoID: id)
        startStandIn(photoID: id)
        continuation.yield()
    }

    private func standInFailed(photoID id: Int, token: Int, reason: String) {
        guard standInTasks[id]?.token == token, !isStopped else { return }
        standInTasks[id] = nil
        store.setStandInFailure(reason, photoID: id)
        continuation.yield()
    }

    /// A picture to show from, from the fetch numbered `token`; a stand-in never replaces the original.
    private func arrived(_ source: Source, photoID id: Int, token: Int) {
        guard !isStopped else { return }
        if source.kind == .original {
            guard originalTasks[id]?.token == token else { return }
            originalTasks[id] = nil
            standInTasks.removeValue(forKey: id)?.task.cancel()
            sources[id] = source
            loupes[id] = nil
            ahead[id] = nil
            store.set(.ready, photoID: id)
        } else {
            guard standInTasks[id]?.token == token else { return }
            standInTasks[id] = nil
            guard sources[id] == nil else { return }
            sources[id] = source
        }
        continuation.yield()
        kick()
    }

    // MARK: Making frames

    private func kick() {
        pending = true
        guard worker == nil, !isStopped else { return }
        worker = Task { await self.work() }
    }

    /// Makes a frame for each wanted view not yet shown, most important first; starts over when the
    /// wants change meanwhile.
    private func work() async {
        while pending, !isStopped {
            pending = false
            for request in wanted {
                let id = request.photo.id
                guard let source = sources[id] else { continue }
                if let shown = store.frame(photoID: id), shown.request == request, shown.source == source.kind { continue }
                var loupe = Self.positioned(request, source, loupe: loupes[id])
                if source.kind == .original, let shown = showAhead(request, loupe: loupe, imageSize: source.size) {
                    store.put(shown)
                    continuation.yield()
                    continue
                }
                if source.kind == .original, loupe.regionToDecode != nil {
                    // The view left the band: the old band goes before the new one is decoded, so two
                    // are never held at once.
                    loupe.releaseBand()
                    loupes[id]?.releaseBand()
                }
                let made = await Task.detached { [loupe, decoder, render] in
                    Self.frame(request, source, loupe: loupe, decoder: decoder, render: render)
                }.value
                guard !isStopped, sources[id]?.kind == source.kind else { continue }
                if case .success(let (_, decoded)) = made, source.kind == .original, wanted.contains(where: { $0.photo.id == id }) {
                    // Kept even when keys moved the view meanwhile: the next view is most likely in it.
                    loupes[id] = decoded
                }
                guard wanted.contains(request) else { continue }
                switch made {
                case .success(let (frame, _)):
                    store.put(frame)
                case .failure(let error):
                    if source.kind == .original {
                        sources[id] = nil
                        failed.insert(id)
                        unreadable.insert(id)
                        originals?.remove(photoID: id, variant: Self.originalVariant)
                        store.set(.failed("original unreadable: \(error.description)"), photoID: id)
                        startStandIn(photoID: id)
                    } else {
                        sources[id] = nil
                        store.setStandInFailure(error.description, photoID: id)
                    }
                }
                continuation.yield()
                if pending { break }
            }
            if !pending { await decodeAhead() }
            if !pending { await renderAhead() }
        }
        worker = nil
    }

    /// The frame for `request` from a rendering made ahead, when its view is one: the views one pan away
    /// are then dropped (they are the new view's no longer), and the view left is kept for the way back.
    private func showAhead(_ request: LoupeRequest, loupe: Loupe, imageSize: PixelSize) -> LoupeFrame? {
        let id = request.photo.id
        guard rendersAhead, let held = ahead[id], held.box == request.box, let rendering = held.views[loupe.view] else { return nil }
        var kept: [Loupe.Region: any PreviewRendering] = [:]
        if let left = store.frame(photoID: id), left.source == .original, left.request.box == request.box, let leftRendering = left.rendering {
            kept[left.view] = leftRendering
        }
        ahead[id] = (request.box, kept)
        loupes[id] = loupe
        shownFromAhead += 1
        return LoupeFrame(
            request: request, size: PixelSize(width: loupe.view.width, height: loupe.view.height), view: loupe.view,
            imageSize: imageSize, source: .original, rendering: rendering
        )
    }

    /// With every view shown and its band decoded, renders the views one pan away in each direction that
    /// the band holds, most important photo first; stops as soon as new views are wanted.
    private func renderAhead() async {
        guard rendersAhead, let render else { return }
        for request in wanted where !pending && !isStopped {
            let id = request.photo.id
            guard let source = sources[id], source.kind == .original, let loupe = loupes[id],
                  let shown = store.frame(photoID: id), shown.request == request, shown.source == .original else { continue }
            let neighbours = [Loupe.Direction.right, .left, .down, .up].map { direction in
                var next = loupe
                next.pan(direction)
                return next
            }.filter { $0.view != loupe.view }
            // Only the views one pan from this one are kept (the one just left among them).
            let near = Set(neighbours.map(\.view))
            ahead[id] = (request.box, ahead[id].map { $0.box == request.box ? $0.views.filter { near.contains($0.key) } : [:] } ?? [:])
            for next in neighbours where !pending && !isStopped {
                guard ahead[id]?.views[next.view] == nil, let pixels = next.pixels else { continue }
                let box = request.box
                let rendering = await Task.detached { render(PreviewRequest(photoID: id, box: box), pixels, []) }.value
                guard let rendering, loupes[id]?.view == loupe.view, ahead[id]?.box == box else { continue }
                ahead[id]?.views[next.view] = rendering
            }
        }
    }

    /// With every view shown, decodes a band centred on each original's view where the next pan would
    /// leave the band held, so that pan is a copy; stops as soon as new views are wanted.
    private func decodeAhead() async {
        for request in wanted where !pending && !isStopped {
            let id = request.photo.id
            guard let source = sources[id], source.kind == .original, let loupe = loupes[id], let region = loupe.bandAhead else { continue }
            // The view is on screen: its band can go before the next one is decoded.
            loupes[id]?.releaseBand()
            let band = await Task.detached { [decoder] in
                try? decoder.decodeRegion(source.bytes, x: region.x, y: region.y, width: region.width, height: region.height)
            }.value
            guard let band, loupes[id]?.view == loupe.view, sources[id]?.kind == .original else { continue }
            loupes[id]?.decoded(band.image, x: band.originX, y: band.originY)
        }
    }

    /// One frame: from the original, the view cut from the band (decoded again only when the view left
    /// it); from a stand-in, its part of the rendition enlarged to the original's scale.
    private static func frame(
        _ request: LoupeRequest, _ source: Source, loupe: Loupe, decoder: PreviewDecoder, render: PreviewLoader.Render?
    ) -> Result<(LoupeFrame, Loupe), PreviewError> {
        var loupe = loupe
        do throws(PreviewError) {
            let imageSize = loupe.imageSize
            let pixels: PreviewImage
            if source.kind == .original {
                if let region = loupe.regionToDecode {
                    let band = try decoder.decodeRegion(source.bytes, x: region.x, y: region.y, width: region.width, height: region.height)
                    loupe.decoded(band.image, x: band.originX, y: band.originY)
                }
                guard let view = loupe.pixels else { throw PreviewError.corrupt("the original is smaller than its header says") }
                pixels = view
            } else {
                pixels = try standIn(source, size: imageSize, view: loupe.view, decoder: decoder)
            }
            let rendering = render?(PreviewRequest(photoID: request.photo.id, box: request.box), pixels, [])
            let frame = LoupeFrame(request: request, size: pixels.size, view: loupe.view, imageSize: imageSize, source: source.kind, rendering: rendering)
            return .success((frame, loupe))
        } catch {
            return .failure(error)
        }
    }

    /// The loupe for `request`: the one held, moved to the request's centre, while the picture and the
    /// screen are the same; else a new one.
    private static func positioned(_ request: LoupeRequest, _ source: Source, loupe: Loupe?) -> Loupe {
        let imageSize = source.kind == .original ? source.size : originalSize(of: request.photo, standIn: source.size)
        var loupe = loupe.flatMap { $0.imageSize == imageSize && $0.viewport == request.box ? $0 : nil }
            ?? Loupe(imageSize: imageSize, viewport: request.box, centre: (request.centre.x, request.centre.y))
        loupe.follow((request.centre.x, request.centre.y))
        return loupe
    }

    /// The view's part of a rendition, enlarged to the original's scale.
    private static func standIn(_ source: Source, size: PixelSize, view: Loupe.Region, decoder: PreviewDecoder) throws(PreviewError) -> PreviewImage {
        let scaleX = Double(source.size.width) / Double(size.width), scaleY = Double(source.size.height) / Double(size.height)
        let x0 = max(0, Int((Double(view.x) * scaleX).rounded(.down)) - 1), y0 = max(0, Int((Double(view.y) * scaleY).rounded(.down)) - 1)
        let x1 = min(source.size.width, Int((Double(view.x + view.width) * scaleX).rounded(.up)) + 1)
        let y1 = min(source.size.height, Int((Double(view.y + view.height) * scaleY).rounded(.up)) + 1)
        let part = try decoder.decodeRegion(source.bytes, x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
        return part.image.resampled(
            width: view.width, height: view.height,
            x: Double(view.x) * scaleX - Double(part.originX), y: Double(view.y) * scaleY - Double(part.originY),
            stepX: scaleX, stepY: scaleY
        )
    }

    /// The original's upright size while only a rendition is here: the photo's own width and height,
    /// turned as the rendition is; the rendition's when the photo has none.
    public static func originalSize(of photo: Photo, standIn: PixelSize) -> PixelSize {
        guard let width = photo.width, let height = photo.height, width >= standIn.width || height >= standIn.height, width > 0, height > 0 else {
            return standIn
        }
        let turned = (width > height) != (standIn.width > standIn.height) && standIn.width != standIn.height
        return turned ? PixelSize(width: height, height: width) : PixelSize(width: width, height: height)
    }

    /// Removes the files in `folder` not written for `seconds`: downloads of originals left off long ago.
    static func removeStale(in folder: URL, olderThan seconds: TimeInterval) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let cutoff = Date().addingTimeInterval(-seconds)
        for name in names {
            let path = folder.appending(path: name).path
            var status = stat()
            guard lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
                  Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec)) < cutoff else { continue }
            unlink(path)
        }
    }

    /// A downloaded original that could not be read back from its file.
    struct UnreadableDownload: UserFacingError {
        var userMessage: String { "the downloaded file could not be read back" }
    }

    /// The name originals are filed under in their cache.
    static let originalVariant = "original"

    private static func describe(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? String(describing: error)
    }
}
