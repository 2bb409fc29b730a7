import PhotoPickKit

/// A photo's rendition from the disk cache, else fetched from the server and filed there: the one
/// "cache, else fetch and store" path that previews, focus measuring and the loupe's stand-ins share.
struct RenditionSource: Sendable {
    /// What was found: a cached file `read` accepted and the variant it was filed as, or bytes just
    /// fetched (and filed).
    enum Found<Value> {
        case cached(Value, variant: String)
        case fetched([UInt8])
    }

    let disk: PreviewDiskCache?
    let fetch: PreviewLoader.Fetch
    /// Fetches under way: each finishes into `disk` even when the want that started it goes.
    let flights: RenditionFlights

    init(disk: PreviewDiskCache?, fetch: @escaping PreviewLoader.Fetch) {
        self.disk = disk
        self.fetch = fetch
        flights = RenditionFlights(disk: disk)
    }

    /// The first of `cached` on disk that `read` accepts (a file it rejects is damaged, or a bad answer
    /// kept earlier, and is dropped), else `size` fetched and filed; nil when the task is cancelled. The
    /// fetch goes through `flights`: one under way is joined, and one started finishes when this task goes.
    func rendition<Value>(
        photoID: Int, cached: [DownloadSize], fetching size: DownloadSize, read: ([UInt8]) -> Value?
    ) async throws(APIError) -> Found<Value>? {
        let fetch = fetch, flights = flights
        return try await Self.cachedOrFetched(
            photoID: photoID, in: disk, cached: cached.map(\.rawValue), filedAs: size.rawValue, read: read, fetchFiles: true
        ) { () async throws(APIError) in
            try await flights.fetch(.init(photoID: photoID, variant: size.rawValue)) { () async throws(APIError) in
                try await fetch(photoID, size)
            }
        }
    }

    /// The one path itself, for any file a cache keeps: the first of the `cached` variants in `disk`
    /// that `read` accepts (one it rejects is dropped), else `whenMissing` is told (the loupe starts a
    /// stand-in then) and `fetch`'s bytes are filed as `filedAs`, unless `fetchFiles` says the fetch files
    /// them itself (a flight does, even when no one waits for it); nil when the task is cancelled.
    static func cachedOrFetched<Value, Failure: Error>(
        photoID: Int, in disk: PreviewDiskCache?, cached: [String], filedAs variant: String, read: ([UInt8]) -> Value?,
        fetchFiles: Bool = false, whenMissing: () async -> Void = {}, fetch: () async throws(Failure) -> FetchedVariant
    ) async throws(Failure) -> Found<Value>? {
        for candidate in cached {
            guard let file = disk?.bytes(photoID: photoID, variant: candidate) else { continue }
            if let value = read(file.bytes) { return .cached(value, variant: candidate) }
            disk?.remove(photoID: photoID, variant: candidate)
        }
        if Task.isCancelled { return nil }
        await whenMissing()
        let fetched = try await fetch()
        if Task.isCancelled { return nil }
        // A disk that is full or read-only costs the cache, not the picture.
        if !fetchFiles { try? disk?.store(photoID: photoID, variant: variant, etag: fetched.etag, bytes: fetched.bytes) }
        return .fetched(fetched.bytes)
    }
}
