import Foundation

extension APIClient {
    /// Downloads a photo into `directory`: streamed to `<name>.part` with bounded memory, resumed from an
    /// earlier partial file, verified against the server's digest (or the photo's size), synced, then
    /// renamed into place with its capture time as modification time.
    ///
    /// A file this download already finished (its digest is kept on it) is found without a request; an
    /// identical file already there is skipped; a different one keeps its name and the new file gets
    /// ` (2)`. Throws `APIError` or `DownloadError`; a `.part` file is kept whenever resuming can help.
    public nonisolated func download(
        photo: Photo, size: DownloadSize = .original, format: DownloadFormat = .original, into directory: URL,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil
    ) async throws -> DownloadResult {
        let folder = try DownloadDirectory(directory)
        if let finished = FileDownload.finishedFile(photo: photo, size: size, format: format, directory: folder) {
            return finished
        }
        var download = try await FileDownload.prepare(
            client: self, photo: photo, size: size, format: format, directory: folder, progress: progress
        )
        return try await download.run()
    }
}
