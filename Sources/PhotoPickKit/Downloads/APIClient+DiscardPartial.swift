import Foundation

extension APIClient {
    /// Removes the `.part` file that an interrupted download of this photo left in `directory`, for a
    /// download the user cancelled. Partials of other photos, and one a running download holds, stay.
    public nonisolated func discardPartialDownload(
        photo: Photo, size: DownloadSize = .original, format: DownloadFormat = .original, in directory: URL
    ) throws(DownloadError) {
        let directory = try DownloadDirectory(directory)
        let name = SafeFilename(serverName: photo.filename, photoID: photo.id, mimeType: photo.mimeType, size: size, format: format)
        let source = "\(photo.id)/\(size.rawValue)/\(format.rawValue)"
        for number in 1..<10_000 {
            let candidate = name.candidate(number)
            let partName = candidate + SafeFilename.partSuffix
            // Names are taken in order, so the first number with neither a file nor a partial ends the search.
            guard directory.entry(partName) != nil else {
                if directory.entry(candidate) == nil { return }
                continue
            }
            let part = try directory.openPart(partName)
            guard part.lockExclusively(), part.source == source, directory.isSameFile(part, as: partName) else { continue }
            directory.remove(partName)
            return
        }
    }
}
