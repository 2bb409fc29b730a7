import Foundation

/// How a download ended.
public struct DownloadResult: Sendable, Hashable {
    /// Whether bytes were fetched, or an identical file was already there.
    public enum Outcome: Sendable, Hashable {
        case downloaded
        case skippedIdentical
    }

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
    public let photoID: Int
    /// Bytes on disk so far, including resumed ones.
    public let receivedBytes: Int64
    /// The whole file's length, once known.
    public let expectedBytes: Int64?
}
