import Foundation
import PhotoImaging
import PhotoPickKit

/// Where the loupe's pictures come from: each original from its cache or fetched with progress,
/// and meanwhile the largest cached rendition (else `a4`) standing in.
extension LoupeLoader {
    /// The original from the cache, else fetched with progress while a rendition stands in; read off
    /// the actor, so a large file or a progressive header never holds up the views' wants.
    func startOriginal(_ photo: Photo) {
        let id = photo.id
        guard originalTasks[id] == nil, !failed.contains(id), !unreadable.contains(id) else { return }
        nextToken += 1
        let token = nextToken
        let store = store, throttle = ProgressThrottle(clock: clock), continuation = continuation
        let fetch = fetchOriginal, originals = originals, decoder = originalDecoder
        let progress: @Sendable (DownloadProgress) -> Void = { progress in
            store.set(.fetching(received: progress.receivedBytes, expected: progress.expectedBytes), photoID: id)
            if throttle.shouldReport() { continuation.yield() }
        }
        originalTasks[id] = (token, Task.detached { [weak self] in
            await RequestLane.$current.withValue(.user) {
                do {
                    // Cached, else fetched with progress while a rendition stands in, and filed.
                    let filed = try await RenditionSource.cachedOrFetched(
                        photoID: id, in: originals, cached: [Self.originalVariant], filedAs: Self.originalVariant, read: { $0 },
                        whenMissing: {
                            await self?.startStandIn(photoID: id)
                            store.set(.fetching(received: 0, expected: photo.bytes > 0 ? photo.bytes : nil), photoID: id)
                            continuation.yield()
                        }
                    ) { () async throws in FetchedVariant(bytes: try await fetch(photo, progress), etag: nil) }
                    let bytes: [UInt8]
                    switch filed {
                    case .cached(let cached, _)?: bytes = cached
                    case .fetched(let fetched)?: bytes = fetched
                    case nil: return
                    }
                    // A picture decoded whole takes a few hundred milliseconds at 24 MP (a HEIC of one
                    // picture, a large PNG, a demosaic): a cached rendition stands in meanwhile, as while fetching.
                    if OriginalDecoder.standsInFirst(bytes) { await self?.startStandIn(photoID: id) }
                    // Whatever the service says the type is, the bytes decide: a JPEG's header is read, a
                    // RAW's preview found, a HEIC grid's layout read or one picture decoded whole, off the actor.
                    let picture = try decoder.prepare(bytes)
                    await self?.arrived(Source(picture: picture, kind: .original), photoID: id, token: token)
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
    func startStandIn(photoID id: Int) {
        guard sources[id] == nil, standInTasks[id] == nil, !isStopped else { return }
        standInsStarted += 1
        nextToken += 1
        let token = nextToken
        let renditions = renditions, decoder = decoder
        standInTasks[id] = (token, Task.detached { [weak self] in
            await RequestLane.$current.withValue(.user) {
                let found: (bytes: [UInt8], size: DownloadSize)
                do throws(APIError) {
                    switch try await renditions.rendition(photoID: id, cached: [.a4, .fhd, .web], fetching: .a4, read: { $0 }) {
                    case .cached(let bytes, let variant)?: found = (bytes, DownloadSize(rawValue: variant) ?? .a4)
                    case .fetched(let bytes)?: found = (bytes, .a4)
                    case nil: return
                    }
                } catch {
                    if Task.isCancelled { return }
                    return await self?.standInFailed(photoID: id, token: token, reason: error.userMessage) ?? ()
                }
                do throws(PreviewError) {
                    let picture = OriginalPicture(pixels: .jpeg(found.bytes), format: .jpeg, size: try decoder.header(found.bytes).uprightSize)
                    await self?.arrived(Source(picture: picture, kind: .standIn(found.size)), photoID: id, token: token)
                } catch {
                    renditions.disk?.remove(photoID: id, variant: found.size.rawValue)
                    await self?.standInFailed(photoID: id, token: token, reason: error.description)
                }
            }
        })
    }

    func originalFailed(photoID id: Int, token: Int, reason: String, forGood: Bool) {
        guard originalTasks[id]?.token == token, !isStopped else { return }
        originalTasks[id] = nil
        failed.insert(id)
        if forGood { unreadable.insert(id) }
        store.set(.failed(reason), photoID: id)
        startStandIn(photoID: id)
        continuation.yield()
    }

    func standInFailed(photoID id: Int, token: Int, reason: String) {
        guard standInTasks[id]?.token == token, !isStopped else { return }
        standInTasks[id] = nil
        store.setStandInFailure(reason, photoID: id)
        continuation.yield()
    }

    /// A picture to show from, from the fetch numbered `token`; a stand-in never replaces the original.
    func arrived(_ source: Source, photoID id: Int, token: Int) {
        guard !isStopped else { return }
        if source.kind == .original {
            guard originalTasks[id]?.token == token else { return }
            originalTasks[id] = nil
            standInTasks.removeValue(forKey: id)?.task.cancel()
            sources[id] = source
            loupes[id] = nil
            ahead[id] = nil
            store.set(.ready, photoID: id)
            if wanted.contains(where: { $0.photo.id == id && $0.histogram }) { countHistogram(photoID: id, source.picture) }
        } else {
            guard standInTasks[id]?.token == token else { return }
            standInTasks[id] = nil
            guard sources[id] == nil else { return }
            sources[id] = source
        }
        continuation.yield()
        kick()
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
}
