import Foundation

extension FileDownload {
    /// Chooses the name and claims its `.part`. When another download of the same photo into the same
    /// folder is under way, it waits for that one to end, and then usually finds the file already there.
    static func prepare(
        client: APIClient, photo: Photo, size: DownloadSize, format: DownloadFormat, directory: DownloadDirectory,
        progress: (@Sendable (DownloadProgress) -> Void)?, willPlace: (@Sendable (WrittenFile) async throws -> Void)?
    ) async throws -> FileDownload {
        let target = DownloadTarget(photo: photo, size: size, format: format)
        let endpoint = API.downloadLocation(id: photo.id, size: size, format: format).url(relativeTo: client.baseURL)
        while true {
            var isWaiting = false
            for number in 1..<DownloadTarget.candidateLimit {
                if directory.entry(target.name.candidate(number)) != nil { continue }
                switch try claimPart(target.partName(number), in: directory, for: target.source) {
                case .claimed(let part):
                    return FileDownload(
                        client: client, photo: photo, size: size, format: format, directory: directory, name: target.name,
                        progress: progress, willPlace: willPlace, candidateNumber: number, partName: target.partName(number), part: part,
                        endpoint: endpoint, location: endpoint
                    )
                case .heldByAnotherPhoto:
                    continue
                case .heldByTheSamePhoto:
                    isWaiting = true
                }
                break
            }
            guard isWaiting else {
                throw DownloadError.fileSystem(path: directory.url.path, reason: "no free name for \(target.name.candidate(1))")
            }
            // Another download of this photo is under way: look at every name again once it may have finished.
            try await DownloadTarget.waitForOtherDownload(on: client.time)
        }
    }

    /// A file this photo's download already put in place, found without asking the server: it says it
    /// is this photo, size and format, and its bytes hash to the digest verified when it was finished.
    /// A `.part` still linked to it (a kill between the link and the unlink) goes.
    static func finishedFile(
        photo: Photo, size: DownloadSize, format: DownloadFormat, directory: DownloadDirectory, removingLeftovers: Bool = true
    ) -> DownloadResult? {
        let target = DownloadTarget(photo: photo, size: size, format: format)
        for number in 1..<DownloadTarget.candidateLimit {
            let name = target.name.candidate(number)
            guard let entry = directory.entry(name) else { return nil }  // names are taken in order
            guard case .file(let length) = entry, let file = directory.openExistingPart(name), file.source == target.source,
                  let digest = file.digest, directory.holds(name, length: length, digest: digest)
            else { continue }
            if removingLeftovers, let part = directory.openExistingPart(target.partName(number)), directory.isSameFile(part, as: name) {
                directory.remove(target.partName(number))
            }
            return DownloadResult(outcome: .skippedIdentical, fileURL: URL(fileURLWithPath: directory.path(name)), bytes: length, resumedFrom: 0)
        }
        return nil
    }

    enum Claim {
        case claimed(PartFile)
        case heldByTheSamePhoto
        case heldByAnotherPhoto
    }

    /// Opens and locks a `.part` for this photo, unless another download holds it or it holds another photo.
    /// A partial file that was already there is resumed only when it says it is this photo's (the
    /// extended attribute photopick sets on the files it creates); one that says nothing was not made by
    /// photopick, or its file system keeps no attributes: either way nobody can tell whose bytes those are,
    /// so the download stops naming it rather than empty or rename someone else's file.
    static func claimPart(_ partName: String, in directory: DownloadDirectory, for source: String) throws(DownloadError) -> Claim {
        let (part, isNew) = try directory.openPart(partName, labelledAs: source)
        guard part.lockExclusively() else {
            // Held by a download that may not have said whose it is yet: wait rather than guess.
            let owner = part.source
            return owner == nil || owner == source ? .heldByTheSamePhoto : .heldByAnotherPhoto
        }
        // A download that finished (or gave up) may have unlinked the name after this one opened it.
        guard directory.isSameFile(part, as: partName) else { return .heldByTheSamePhoto }
        if !isNew {
            guard let owner = part.source else {
                // Where files cannot be made unnamed, another download may have created it a moment ago and
                // not labelled it yet (it locks and labels just after O_EXCL): wait and look again. One that
                // stays unlabelled is not ours.
                if part.isEmptyAndNewerThan(.seconds(2)) { return .heldByTheSamePhoto }
                throw .inTheWay(path: part.path)
            }
            if owner != source { return .heldByAnotherPhoto }
            if part.length > 0, part.validator == nil {
                // Ours, but without a validator there is no telling whether the bytes still match the server's file.
                try part.reset()
            }
        }
        part.source = source
        return .claimed(part)
    }
}

/// The files a download of one photo, size and format writes: its sanitised name (with ` (2)`-style
/// alternatives), their `.part` names, and the tag a `.part` carries to say whose it is.
struct DownloadTarget {
    let name: SafeFilename
    let source: String

    /// Names beyond this many alternatives are not tried.
    static let candidateLimit = 10_000

    init(photo: Photo, size: DownloadSize, format: DownloadFormat) {
        name = SafeFilename(serverName: photo.filename, photoID: photo.id, mimeType: photo.mimeType, size: size, format: format)
        source = "\(photo.id)/\(size.rawValue)/\(format.rawValue)"
    }

    func partName(_ number: Int) -> String {
        SafeFilename.partPrefix + name.candidate(number) + SafeFilename.partSuffix
    }

    /// A pause on `clock` before looking again at a `.part` that another download of the same photo holds.
    static func waitForOtherDownload(on clock: Timekeeper) async throws(APIError) {
        try await clock.sleepOrCancel(for: .milliseconds(50))
    }
}
