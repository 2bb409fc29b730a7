import Foundation

extension APIClient {
    /// Removes the `.part` file that an interrupted download of this photo left in `directory`, for a
    /// download the user cancelled. When a download of it is still stopping, this waits for it to let
    /// go of the file. Partials of other photos stay.
    public nonisolated func discardPartialDownload(
        photo: Photo, size: DownloadSize = .original, format: DownloadFormat = .original, in url: URL
    ) async throws {
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let directory = try DownloadDirectory(url)
        let target = DownloadTarget(photo: photo, size: size, format: format)
        while try !discardPartial(of: target, in: directory) {
            try await DownloadTarget.waitForOtherDownload(on: time)
        }
    }

    /// False while a download of the same photo holds its partial file; true once there is nothing left to remove.
    private nonisolated func discardPartial(of target: DownloadTarget, in directory: DownloadDirectory) throws(DownloadError) -> Bool {
        for number in 1..<DownloadTarget.candidateLimit {
            let partName = target.partName(number)
            // Names are taken in order, so the first number with neither a file nor a partial ends the search.
            guard directory.entry(partName) != nil else {
                if directory.entry(target.name.candidate(number)) == nil { return true }
                continue
            }
            guard let part = directory.openExistingPart(partName) else { continue }
            let owner = part.source
            guard part.lockExclusively() else {
                if owner == nil || owner == target.source { return false }
                continue
            }
            guard owner == target.source, directory.isSameFile(part, as: partName) else { continue }
            directory.remove(partName)
            return true
        }
        return true
    }
}
