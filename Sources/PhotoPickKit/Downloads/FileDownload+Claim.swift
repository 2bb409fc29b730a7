import Foundation

extension FileDownload {
    /// Chooses the name and claims its `.part`. When another download of the same photo into the same
    /// folder is under way, it waits for that one to end, and then usually finds the file already there.
    static func prepare(
        client: APIClient, photo: Photo, size: DownloadSize, format: DownloadFormat, directory url: URL,
        progress: (@Sendable (DownloadProgress) -> Void)?
    ) async throws -> FileDownload {
        let directory = try DownloadDirectory(url)
        let name = SafeFilename(serverName: photo.filename, photoID: photo.id, mimeType: photo.mimeType, size: size, format: format)
        let source = "\(photo.id)/\(size.rawValue)/\(format.rawValue)"
        while true {
            var isWaiting = false
            for number in 1..<10_000 where !isWaiting {
                let candidate = name.candidate(number)
                if directory.entry(candidate) != nil { continue }
                switch try claimPart(candidate + SafeFilename.partSuffix, in: directory, for: source) {
                case .claimed(let part):
                    return FileDownload(
                        client: client, photo: photo, size: size, format: format, directory: directory, name: name,
                        progress: progress, candidateNumber: number,
                        partName: candidate + SafeFilename.partSuffix, part: part
                    )
                case .heldByAnotherPhoto:
                    continue
                case .heldByTheSamePhoto:
                    isWaiting = true
                }
            }
            guard isWaiting else { throw DownloadError.fileSystem(path: directory.url.path, reason: "no free name for \(name.candidate(1))") }
            // Another download of this photo is under way: look at every name again once it may have finished.
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                throw APIError.cancelled
            }
        }
    }

    enum Claim {
        case claimed(PartFile)
        case heldByTheSamePhoto
        case heldByAnotherPhoto
    }

    /// Opens and locks a `.part` for this photo, unless another download holds it or it holds another photo.
    static func claimPart(_ partName: String, in directory: DownloadDirectory, for source: String) throws(DownloadError) -> Claim {
        let part = try directory.openPart(partName)
        guard part.lockExclusively() else {
            // Held by a download that may not have said whose it is yet: wait rather than guess.
            return part.source == nil || part.source == source ? .heldByTheSamePhoto : .heldByAnotherPhoto
        }
        // A download that finished (or gave up) may have unlinked the name after this one opened it.
        guard directory.isSameFile(part, as: partName) else { return .heldByTheSamePhoto }
        // A partial that says it is another photo's is left for that photo. One that says nothing (a file
        // system without extended attributes) cannot be resumed by anyone, so it is started over below.
        if part.length > 0, let owner = part.source, owner != source { return .heldByAnotherPhoto }
        if part.length > 0, part.validator == nil {
            // Without a validator there is no telling whether the bytes still match the server's file.
            try part.reset()
        }
        part.source = source
        return .claimed(part)
    }
}
