import Foundation

/// Where `APIClient.download` would put a photo now, found without a request and without creating
/// anything: what a dry run prints.
public enum PlannedDownload: Sendable, Equatable {
    /// A file an earlier download of it finished is there, so nothing would be fetched.
    case finished(URL)
    /// It would be fetched into this file; only the server's digest can still show an identical file
    /// already under one of its names, and then nothing is written.
    case new(URL)

    /// The plan for this photo, size and format in `directory`.
    public init(photo: Photo, size: DownloadSize = .original, format: DownloadFormat = .original, in directory: URL) {
        let target = DownloadTarget(photo: photo, size: size, format: format)
        let first = directory.standardizedFileURL.appending(path: target.name.candidate(1), directoryHint: .notDirectory)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue,
              let folder = try? DownloadDirectory(directory)
        else {
            self = .new(first)
            return
        }
        if let finished = FileDownload.finishedFile(photo: photo, size: size, format: format, directory: folder, removingLeftovers: false) {
            self = .finished(finished.fileURL)
            return
        }
        let free = (1..<DownloadTarget.candidateLimit).first { folder.entry(target.name.candidate($0)) == nil } ?? 1
        self = .new(URL(fileURLWithPath: folder.path(target.name.candidate(free))))
    }
}
