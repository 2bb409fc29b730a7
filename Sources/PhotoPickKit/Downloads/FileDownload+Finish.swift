import Foundation
import NIOPosix

extension FileDownload {
    /// Verifies, syncs, dates and renames the file into place under the first free name.
    mutating func finish(length: Int64) async throws -> DownloadResult {
        let digest = Array(hasher.finalize())
        if let serverDigest, digest != serverDigest {
            directory.remove(partName)
            throw DownloadError.digestMismatch(filename: name.candidate(candidateNumber))
        }
        if serverDigest == nil, size == .original, format == .original, length != photo.bytes {
            directory.remove(partName)
            throw DownloadError.lengthMismatch(filename: name.candidate(candidateNumber), expected: photo.bytes, actual: length)
        }
        if let taken = earlierName(holding: length, digest: digest) {
            // The same bytes already sit under an earlier name: no digest came to compare before fetching,
            // or a concurrent download of the same photo finished first.
            directory.remove(partName)
            return result(.skippedIdentical, taken, bytes: length)
        }
        if let takenAt = photo.takenAt { part.setModificationTime(takenAt) }
        // Whose file it is and its verified digest stay on it, so a run that finds it in place (killed
        // before the queue heard of it) finishes without asking the server.
        part.digest = digest
        try await sync()
        while true {
            let candidate = name.candidate(candidateNumber)
            if directory.entry(candidate) == nil {
                try await record(as: candidate, length: length, digest: digest)
                if try directory.moveIntoPlace(partName, as: candidate) { break }
            }
            if directory.holds(candidate, length: length, digest: digest) {
                // A concurrent download of the same photo got there first.
                directory.remove(partName)
                return result(.skippedIdentical, candidate, bytes: length)
            }
            candidateNumber += 1
        }
        // Only now, with the file in place, does the resume record go: a failure before this keeps a resumable partial.
        part.validator = nil
        directory.sync()
        return result(.downloaded, name.candidate(candidateNumber), bytes: length)
    }

    /// Tells `willPlace` of the file about to be named `candidate`, so its record is durable before it is there.
    private func record(as candidate: String, length: Int64, digest: [UInt8]) async throws {
        guard let willPlace else { return }
        guard let file = WrittenFile.describing(
            part.descriptor, path: directory.path(candidate), photoID: photo.id, variant: variantName, length: length, sha256: digest
        ) else { throw DownloadError.fileSystem(path: part.path, reason: DownloadDirectory.reason()) }
        try await willPlace(file)
    }

    /// The variant as a record names it: the size, with the format when it is not the original's.
    private var variantName: String {
        format == .original ? size.rawValue : "\(size.rawValue).\(format.rawValue)"
    }

    /// `fsync` off the cooperative pool: a file is renamed into place only once it is on the disk.
    private func sync() async throws {
        let descriptor = part.descriptor
        let failure = try await NIOThreadPool.singleton.runIfActive { fsync(descriptor) == 0 ? 0 : errno }
        guard failure == 0 else { throw PartFile.writeError(part.path, errno: failure) }
    }
}
