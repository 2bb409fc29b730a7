import Foundation
import PhotoPickKit

/// One photo a purge deletes, with what the purge log keeps of it.
public struct PurgeItem: Sendable, Hashable {
    /// The photo as last seen: its id, name, capture time and size.
    public let photo: Photo
    /// The names of its tags.
    public let tags: [String]

    /// A photo to delete.
    public init(photo: Photo, tags: [String]) {
        self.photo = photo
        self.tags = tags
    }
}

/// What a purge did, photo by photo.
public struct PurgeReport: Sendable, Equatable {
    /// Deleted on the server.
    public var deleted: [Int] = []
    /// Not deleted, with why.
    public var failed: [Int: String] = [:]
    /// Where each deleted photo's original was kept.
    public var kept: [Int: String] = [:]

    /// An empty report.
    public init() {}

    /// “Deleted 37 photos (412 MB); 2 were not deleted: …”.
    public func summary(bytes: Int64) -> String {
        var text = "Deleted \(deleted.count == 1 ? "1 photo" : "\(deleted.count.formatted()) photos") (\(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file)))"
        if !kept.isEmpty { text += ", originals kept" }
        if let (id, reason) = failed.min(by: { $0.key < $1.key }) {
            text += "; \(failed.count) not deleted (photo \(id): \(reason))"
        }
        return text + "."
    }
}

/// Deletes photos from the server for good, one at a time: with a folder to keep originals in, each
/// original is downloaded there and verified first (digest and length), and a photo whose original
/// cannot be kept is not deleted. Every deletion is in the purge log before its `DELETE` is sent and
/// its outcome after, so a purge killed at any moment can say exactly what went. Nothing is queued:
/// a photo the server cannot be asked to delete now is reported, not retried later.
public struct Purger: Sendable {
    let client: APIClient
    let log: PurgeLog
    let library: String
    let keepOriginals: URL?

    /// A purger for `library`, logging to `log`, keeping originals in `keepOriginals` when given.
    public init(client: APIClient, log: PurgeLog, library: String, keepOriginals: URL?) {
        self.client = client
        self.log = log
        self.library = library
        self.keepOriginals = keepOriginals
    }

    /// Deletes the items in order, calling `progress` after each with the report so far.
    public func run(_ items: [PurgeItem], progress: @Sendable (PurgeReport) async -> Void = { _ in }) async -> PurgeReport {
        let purge = UUID().uuidString
        var report = PurgeReport()
        for item in items {
            if Task.isCancelled { break }
            await delete(item, purge: purge, into: &report)
            await progress(report)
        }
        return report
    }

    private func delete(_ item: PurgeItem, purge: String, into report: inout PurgeReport) async {
        let photo = item.photo
        func record(_ kind: PurgeLog.Record.Kind, path: String? = nil, reason: String? = nil) throws {
            try log.append(PurgeLog.Record(
                kind: kind, purge: purge, library: library, id: photo.id, filename: photo.filename, takenAt: photo.takenAt,
                tags: item.tags, bytes: photo.bytes, path: path, reason: reason
            ))
        }
        do {
            if let keepOriginals {
                let kept: DownloadResult
                do {
                    kept = try await client.download(photo: photo, size: .original, into: keepOriginals, within: keepOriginals)
                } catch {
                    let reason = "its original could not be kept in \(keepOriginals.path) (\(Self.describe(error))), so it was not deleted"
                    try record(.failed, reason: reason)
                    report.failed[photo.id] = reason
                    return
                }
                try record(.kept, path: kept.fileURL.path)
                report.kept[photo.id] = kept.fileURL.path
            }
            // The intent is on disk before the request leaves: a kill after this line is settled by asking the server.
            try record(.intent)
        } catch {
            report.failed[photo.id] = "the purge log could not be written (\(error)), so it was not deleted"
            return
        }
        do {
            try await client.send(API.deletePhoto(id: photo.id)) as Void
            try? record(.deleted)
            report.deleted.append(photo.id)
        } catch .cancelled {
            // Stopped with the request in flight: whether it arrived is the server's to say, when the log is
            // next settled (`settleInterrupted`), so the intent stays unanswered.
            report.failed[photo.id] = "interrupted; the next photopick asks the server whether it was deleted"
        } catch where error.status == 404 {
            // Gone already: an earlier attempt whose answer was lost, or someone else. Either way, deleted.
            try? record(.deleted, reason: "already gone from the server")
            report.deleted.append(photo.id)
        } catch {
            let reason = Self.describe(error)
            try? record(.failed, reason: reason)
            report.failed[photo.id] = reason
        }
    }

    /// Settles deletions a killed purge left unanswered: the server says which photos are gone. Each is
    /// logged as deleted or failed; the report says which were which. Photos the server cannot be asked
    /// about now stay unsettled for the next time.
    public func settleInterrupted() async throws -> PurgeReport {
        var report = PurgeReport()
        for intent in try log.unsettled(library: library) {
            let outcome: PurgeLog.Record.Kind
            var reason: String?
            do {
                _ = try await client.send(API.photo(id: intent.id))
                outcome = .failed
                reason = "interrupted before the server answered; it is still there"
            } catch where error.status == 404 {
                outcome = .deleted
            } catch {
                continue
            }
            try log.append(PurgeLog.Record(
                kind: outcome, purge: intent.purge, library: library, id: intent.id, filename: intent.filename, takenAt: intent.takenAt,
                tags: intent.tags, bytes: intent.bytes, reason: reason
            ))
            if outcome == .deleted { report.deleted.append(intent.id) } else { report.failed[intent.id] = reason }
        }
        return report
    }

    private static func describe(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? String(describing: error)
    }
}
