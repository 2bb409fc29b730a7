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
        let earlierNames = Set(takenNames + (1..<candidateNumber).map(name.candidate)).sorted()
        if let taken = earlierNames.first(where: { directory.entry($0) == .file(length: length) && directory.sha256(of: $0) == digest }) {
            // The same bytes already sit under an earlier name: no digest came to compare before fetching,
            // or a concurrent download of the same photo finished first.
            directory.remove(partName)
            return DownloadResult(outcome: .skippedIdentical, fileURL: URL(fileURLWithPath: directory.path(taken)), bytes: length, resumedFrom: resumedFrom)
        }
        if let takenAt = photo.takenAt { part.setModificationTime(takenAt) }
        try await sync()
        while try !directory.moveIntoPlace(partName, as: name.candidate(candidateNumber)) {
            let taken = name.candidate(candidateNumber)
            if directory.entry(taken) == .file(length: length), directory.sha256(of: taken) == digest {
                // A concurrent download of the same photo got there first.
                directory.remove(partName)
                return DownloadResult(outcome: .skippedIdentical, fileURL: URL(fileURLWithPath: directory.path(taken)), bytes: length, resumedFrom: resumedFrom)
            }
            candidateNumber += 1
        }
        // Only now, with the file in place, do the resume records go: a failure before this keeps a resumable partial.
        part.validator = nil
        part.source = nil
        directory.sync()
        return DownloadResult(
            outcome: .downloaded, fileURL: URL(fileURLWithPath: directory.path(name.candidate(candidateNumber))),
            bytes: length, resumedFrom: resumedFrom
        )
    }

    /// `fsync` off the cooperative pool: a file is renamed into place only once it is on the disk.
    private func sync() async throws {
        let descriptor = part.descriptor
        let failure = try await NIOThreadPool.singleton.runIfActive { fsync(descriptor) == 0 ? 0 : errno }
        guard failure == 0 else { throw PartFile.writeError(part.path, errno: failure) }
    }
}
