import PhotoPickKit

/// A photo's rendition from the disk cache, else fetched from the server and filed there: the one
/// "cache, else fetch and store" path that previews, focus measuring and the loupe's stand-ins share.
struct RenditionSource: Sendable {
    /// What was found: a cached file that `read` accepted, or one just fetched (and filed).
    enum Found<Value> {
        case cached(Value, DownloadSize)
        case fetched([UInt8])
    }

    let disk: PreviewDiskCache?
    let fetch: PreviewLoader.Fetch

    /// The first of `cached` on disk that `read` accepts (a file it rejects is damaged, or a bad answer
    /// kept earlier, and is dropped), else `size` fetched and filed; nil when the task is cancelled.
    func rendition<Value>(
        photoID: Int, cached: [DownloadSize], fetching size: DownloadSize, read: ([UInt8]) -> Value?
    ) async throws(APIError) -> Found<Value>? {
        for candidate in cached {
            guard let file = disk?.bytes(photoID: photoID, variant: candidate.rawValue) else { continue }
            if let value = read(file.bytes) { return .cached(value, candidate) }
            disk?.remove(photoID: photoID, variant: candidate.rawValue)
        }
        if Task.isCancelled { return nil }
        let fetched = try await fetch(photoID, size)
        if Task.isCancelled { return nil }
        // A disk that is full or read-only costs the cache, not the picture.
        try? disk?.store(photoID: photoID, variant: size.rawValue, etag: fetched.etag, bytes: fetched.bytes)
        return .fetched(fetched.bytes)
    }
}
