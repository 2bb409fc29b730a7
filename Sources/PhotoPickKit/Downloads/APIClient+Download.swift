import Foundation

extension APIClient {
    /// Downloads a photo into `directory`: streamed to `<name>.part` with bounded memory, resumed from an
    /// earlier partial file, verified against the server's digest (or the photo's size), synced, then
    /// renamed into place with its capture time as modification time.
    ///
    /// A file this download already finished (its digest is kept on it) is found without a request; an
    /// identical file already there is skipped; a different one keeps its name and the new file gets
    /// ` (2)`. Throws `APIError` or `DownloadError`; a `.part` file is kept whenever resuming can help.
    ///
    /// The partial file is `.photopick.<name>.part`; one there that photopick did not create is never
    /// resumed or touched (the download stops with `DownloadError.inTheWay`). `willPlace` hears of every
    /// file this download writes before it appears under its name: a record kept there is how a caller
    /// can tell its own files from the user's later. Nothing already in the folder is ever overwritten.
    /// With `root` (the folder asked for, `directory` being under it), folders below the root are never
    /// reached through a link.
    public nonisolated func download(
        photo: Photo, size: DownloadSize = .original, format: DownloadFormat = .original, into directory: URL, within root: URL? = nil,
        progress: (@Sendable (DownloadProgress) -> Void)? = nil, willPlace: (@Sendable (WrittenFile) async throws -> Void)? = nil
    ) async throws -> DownloadResult {
        let folder = try DownloadDirectory(directory, within: root)
        if let finished = FileDownload.finishedFile(photo: photo, size: size, format: format, directory: folder) {
            return finished
        }
        var download = try await FileDownload.prepare(
            client: self, photo: photo, size: size, format: format, directory: folder, progress: progress, willPlace: willPlace
        )
        return try await download.run()
    }
}
