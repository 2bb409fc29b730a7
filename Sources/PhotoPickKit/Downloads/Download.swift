import Foundation

/// How a download ended.
public struct DownloadResult: Sendable, Hashable {
    /// Whether bytes were fetched, or an identical file was already there.
    public enum Outcome: Sendable, Hashable {
        /// The bytes were fetched and the file is new.
        case downloaded
        /// An identical file was already there; nothing was written.
        case skippedIdentical
    }

    /// Downloaded, or skipped as identical.
    public let outcome: Outcome
    /// The file in the download folder.
    public let fileURL: URL
    /// The file's length.
    public let bytes: Int64
    /// Bytes kept from an earlier partial download.
    public let resumedFrom: Int64
}

/// Progress of one download, reported as bytes arrive.
public struct DownloadProgress: Sendable, Hashable {
    /// The photo being downloaded.
    public let photoID: Int
    /// Bytes on disk so far, including resumed ones.
    public let receivedBytes: Int64
    /// The whole file's length, once known.
    public let expectedBytes: Int64?
}
