import Foundation

/// Where `APIClient.download` would put a photo now, found without a request and without creating
/// anything: what a dry run prints.
public enum PlannedDownload: Sendable, Equatable {
    /// A file an earlier download of it finished is there, so nothing would be fetched.
    case finished(URL)
    /// It would be fetched into this file, unless the server's digest shows that one of `unlessIdentical`
    /// (files already under its earlier names, of its length where that is known) holds the same bytes:
    /// then nothing is written and that file counts as already there.
    case new(URL, unlessIdentical: [URL])

    /// The plan for this photo, size and format in `directory`.
    public init(photo: Photo, size: DownloadSize = .original, format: DownloadFormat = .original, in directory: URL) {
        let target = DownloadTarget(photo: photo, size: size, format: format)
        let first = directory.standardizedFileURL.appending(path: target.name.candidate(1), directoryHint: .notDirectory)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isFolder), isFolder.boolValue,
              let folder = try? DownloadDirectory(directory)
        else {
            self = .new(first, unlessIdentical: [])
            return
        }
        if let finished = FileDownload.finishedFile(photo: photo, size: size, format: format, directory: folder, removingLeftovers: false) {
            self = .finished(finished.fileURL)
            return
        }
        let free = (1..<DownloadTarget.candidateLimit).first { folder.entry(target.name.candidate($0)) == nil } ?? 1
        // The length an identical file must have is known for originals; for a rendition any file may be it.
        let length: Int64? = size == .original && format == .original ? photo.bytes : nil
        let candidates = (1..<free).map(target.name.candidate).filter { name in
            guard case .file(let found) = folder.entry(name) else { return false }
            return length.map { $0 == found } ?? true
        }
        self = .new(URL(fileURLWithPath: folder.path(target.name.candidate(free))), unlessIdentical: candidates.map { URL(fileURLWithPath: folder.path($0)) })
    }
}
