import Foundation
import PhotoPickKit

/// Fetching through an `APIClient`: originals by the resumable download into a folder of partial files,
/// which are cleaned up here.
extension LoupeLoader {
    /// A loader that fetches through `client`, on its clock: originals by the resumable download into
    /// `partials` (a folder of its own; each file leaves it once read, and a partial one left unfinished
    /// for a day is removed), renditions as the previews do.
    public init(
        client: APIClient, partials: URL, disk: PreviewDiskCache?, originals: PreviewDiskCache?, render: PreviewLoader.Render?, rendersAhead: Bool = false
    ) {
        Self.removeStale(in: partials, olderThan: 86_400, now: client.clock.now())
        self.init(disk: disk, originals: originals, render: render, rendersAhead: rendersAhead, clock: client.clock) { photoID, size async throws(APIError) in
            try await client.fetchVariant(photoID: photoID, size: size)
        } fetchOriginal: { photo, progress in
            let result = try await client.download(photo: photo, size: .original, into: partials, progress: progress)
            defer { unlink(result.fileURL.path) }
            guard let bytes = FileBytes.read(result.fileURL.path) else { throw UnreadableDownload() }
            return bytes
        }
    }

    /// Removes the files in `folder` not written for `seconds` before `now`: downloads of originals left off long ago.
    static func removeStale(in folder: URL, olderThan seconds: TimeInterval, now: Date) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        let cutoff = now.addingTimeInterval(-seconds)
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
}
