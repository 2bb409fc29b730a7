import Foundation

/// One photo a script downloads: where under the download folder, and under what name.
public struct ScriptDownload: Sendable, Equatable {
    /// The photo.
    package var photoID: Int
    /// Folders under the download folder, each one safe component (`SafePathComponent`).
    var folders: [String]
    /// The file's name before it is made safe; nil keeps the server's.
    package var filename: String?

    /// One photo, into `folders` under the download folder, under `filename` or the server's name.
    package init(photoID: Int, folders: [String] = [], filename: String? = nil) {
        self.photoID = photoID
        self.folders = folders
        self.filename = filename
    }

    /// The folder it goes into under `root`.
    package func directory(under root: URL) -> URL {
        folders.reduce(root) { $0.appending(path: $1, directoryHint: .isDirectory) }
    }
}
