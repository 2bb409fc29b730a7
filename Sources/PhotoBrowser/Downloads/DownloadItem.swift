import Foundation
import PhotoPickKit

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        var text = self
        while text.count > 1, text.hasSuffix(suffix) { text.removeLast(suffix.count) }
        return text
    }
}

/// One photo in the download queue.
public struct DownloadItem: Sendable, Equatable, Identifiable {
    /// Where an item stands.
    public enum Status: Sendable, Equatable {
        case queued
        case running
        case paused
        /// The file was fetched.
        case done
        /// An identical file was already in the folder.
        case skipped
        /// It failed; the reason is a line for the user.
        case failed(String)

        /// Whether it will not change again unless the user acts.
        public var isFinished: Bool { self == .done || self == .skipped }
    }

    /// Unique within the state database.
    public let id: Int64
    /// The photo.
    public let photoID: Int
    /// The size asked for.
    let variant: DownloadSize
    /// The folder it goes into.
    package let directory: URL
    /// The folder asked for, when `directory` is below it (a script's template): folders between the
    /// two are never reached through a link. Nil when `directory` is the folder asked for.
    internal(set) var root: URL?
    /// The server's filename, unsanitised.
    public let filename: String
    let photoBytes: Int64
    /// The capture time, which the finished file's modification time is set to.
    let takenAt: Date?
    let mimeType: String?
    /// What it is expected to weigh before the server says: the original's size, or an estimate for a smaller variant.
    let estimatedBytes: Int64
    /// Where it stands.
    public internal(set) var status: Status
    /// Bytes on disk, including ones kept from an earlier try.
    public internal(set) var receivedBytes: Int64 = 0
    /// The file's length, once the server has said.
    internal(set) var totalBytes: Int64?
    /// Smoothed transfer rate while running.
    public internal(set) var bytesPerSecond: Double?
    /// The finished file.
    public internal(set) var resultPath: String?
    /// Bytes kept from an earlier, interrupted run when it finished.
    package internal(set) var resumedFrom: Int64 = 0
    /// Which run of the item progress belongs to, so reports from a stopped run are ignored.
    var run = 0
    var lastSample: (seconds: Double, bytes: Int64)?

    /// The expected length: the server's once known, else the estimate.
    public var expectedBytes: Int64 { totalBytes ?? estimatedBytes }

    /// Time left at the current rate.
    public var secondsRemaining: Double? {
        guard status == .running, let bytesPerSecond, bytesPerSecond > 0 else { return nil }
        return Double(max(expectedBytes - receivedBytes, 0)) / bytesPerSecond
    }

    /// The photo as `APIClient.download` needs it.
    var photo: Photo {
        var photo = Photo(id: photoID, filename: filename, bytes: photoBytes, takenAt: takenAt, tagIDs: [])
        photo.mimeType = mimeType
        return photo
    }

    /// Whether it goes into `folder`, however either URL was written (a trailing slash or not).
    package func isIn(_ folder: URL) -> Bool {
        directory.standardizedFileURL.path(percentEncoded: false).trimmingSuffix("/") == folder.standardizedFileURL.path(percentEncoded: false).trimmingSuffix("/")
    }

    /// The same item with the same status and progress; the rate's internal sample is ignored.
    public static func == (a: DownloadItem, b: DownloadItem) -> Bool {
        a.id == b.id && a.status == b.status && a.receivedBytes == b.receivedBytes && a.totalBytes == b.totalBytes
            && a.bytesPerSecond == b.bytesPerSecond && a.resultPath == b.resultPath && a.run == b.run && a.resumedFrom == b.resumedFrom
    }

    /// A variant's size, estimated from the original's: JPEG size grows with pixel count, and the
    /// server's variants bound the long edge (web 1024, fhd 1920, a4 3508) and never upscale; the
    /// original as JPEG is its pixels at a JPEG's weight.
    static func estimate(bytes: Int64, width: Int?, height: Int?, variant: DownloadSize) -> Int64 {
        let longEdge: Double
        switch variant {
        case .original: return bytes
        // The original's pixels as JPEG: about a JPEG's three bits a pixel, when the size is known.
        case .jpeg:
            guard let width, let height, width > 0, height > 0 else { return bytes }
            return Int64(width) * Int64(height) * 3 / 8
        case .web: longEdge = 1024
        case .fhd: longEdge = 1920
        case .a4: longEdge = 3508
        }
        guard let width, let height, max(width, height) > 0 else { return bytes }
        let scale = min(1, longEdge / Double(max(width, height)))
        return max(Int64(Double(bytes) * scale * scale), 1)
    }
}
