import Foundation
import PhotoPickKit
import PhotoPickFormats

/// One photo a purge deletes, with what the purge log keeps of it.
package struct PurgeItem: Sendable, Hashable {
    /// The photo as last seen: its id, name, capture time and size.
    package let photo: Photo
    /// The names of its tags.
    package let tags: [String]

    /// A photo to delete.
    package init(photo: Photo, tags: [String]) {
        self.photo = photo
        self.tags = tags
    }
}

/// What a purge did, photo by photo.
package struct PurgeSummary: Sendable, Equatable {
    /// Deleted on the server.
    package var deleted: [Int] = []
    /// Not deleted, with why.
    package var failed: [Int: String] = [:]
    /// Where each deleted photo's original was kept.
    package var kept: [Int: String] = [:]

    /// An empty report.
    package init() {}

    /// What a killed purge came to: “4 photos deleted; 36 not deleted, still on the server (65, 66, 67,
    /// …).”
    package var interruptionSummary: String {
        let gone = "\(Figures.count(deleted.count, "photo")) deleted"
        guard !failed.isEmpty else { return gone + "." }
        let ids = failed.keys.sorted()
        let shown = ids.prefix(3).map(String.init).joined(separator: ", ") + (ids.count > 3 ? ", …" : "")
        return "\(gone); \(failed.count.formatted()) not deleted, still on the server (\(shown))."
    }

    /// “Deleted 37 photos (412 MB); 2 were not deleted: …”.
    package func summary(bytes: Int64) -> String {
        // Nothing deleted says so, with no size ("Deleted 0 photos (Zero kB)" was how it read).
        var text = deleted.isEmpty ? "Deleted no photos" : "Deleted \(Figures.count(deleted.count, "photo")) (\(Figures.bytes(bytes)))"
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
struct Purger: Sendable {
    let client: APIClient
    let log: PurgeLog
    let library: String
    let keepOriginals: URL?
    /// What the log's lines are dated by.
    let clock: Timekeeper

    /// A purger for `library`, logging to `log` with dates from `clock`, keeping originals in
    /// `keepOriginals` when given.
    init(client: APIClient, log: PurgeLog, library: String, keepOriginals: URL?, clock: Timekeeper) {
        self.client = client
        self.log = log
        self.library = library
        self.keepOriginals = keepOriginals
        self.clock = clock
    }

    /// Deletes the items in order, calling `progress` after each with the report so far.
    func run(_ items: [PurgeItem], progress: @Sendable (PurgeSummary) async -> Void = { _ in }) async -> PurgeSummary {
        let purge = UUID().uuidString
        var report = PurgeSummary()
        // Held while this purge runs, so no other photopick settles it as killed (`settleInterrupted`).
        guard let running = log.markRunning(purge) else {
            for item in items { report.failed[item.photo.id] = "the purge could not be marked as running in the state folder, so it was not deleted" }
            return report
        }
        defer { log.markStopped(purge, running) }
        do {
            // The whole plan first: a purge killed at any moment can say which photos it never reached.
            try log.append(items.map { record(.planned, $0.photo, tags: $0.tags, purge: purge) })
        } catch {
            for item in items { report.failed[item.photo.id] = "the purge log could not be written (\(error)), so it was not deleted" }
            return report
        }
        for item in items {
            if Task.isCancelled { break }
            await delete(item, purge: purge, into: &report)
            await progress(report)
        }
        // A deletion whose answer was lost and which the server could not be asked about stays open: the
        // purge is not marked finished, and the next start settles it.
        let open = try? log.unsettled(library: library).contains { $0.purge == purge }
        if !Task.isCancelled, open == false { try? log.append(PurgeLog.Record(kind: .finished, purge: purge, library: library, id: 0, at: clock.now())) }
        return report
    }

    private func delete(_ item: PurgeItem, purge: String, into report: inout PurgeSummary) async {
        let photo = item.photo
        func record(_ kind: PurgeLog.Record.Kind, path: String? = nil, reason: String? = nil) throws {
            try log.append(self.record(kind, photo, tags: item.tags, purge: purge, path: path, reason: reason))
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
        } catch where error.status.map({ (400..<500).contains($0) && $0 != 408 && $0 != 429 }) ?? false {
            // The server refused it: not deleted, for good.
            let reason = Self.describe(error)
            try? record(.failed, reason: reason)
            report.failed[photo.id] = reason
        } catch {
            // The request may have arrived with its answer lost: the server says whether it went.
            switch await Self.stillThere(photo.id, client: client) {
            case false?:
                try? record(.deleted, reason: "the answer was lost (\(Self.describe(error))); the server says it is gone")
                report.deleted.append(photo.id)
            case true?:
                let reason = Self.describe(error)
                try? record(.failed, reason: reason)
                report.failed[photo.id] = reason
            case nil:
                // Unknown: the intent stays unanswered, and the next start asks again.
                report.failed[photo.id] = "\(Self.describe(error)); whether it was deleted is asked again at the next start"
            }
        }
    }

    /// Whether the photo is still on the server; nil when the server cannot say now.
    private static func stillThere(_ id: Int, client: APIClient) async -> Bool? {
        do {
            _ = try await client.send(API.photo(id: id))
            return true
        } catch where error.status == 404 {
            return false
        } catch {
            return nil
        }
    }

    /// One line of the log about `photo`.
    private func record(_ kind: PurgeLog.Record.Kind, _ photo: Photo, tags: [String], purge: String, path: String? = nil, reason: String? = nil) -> PurgeLog.Record {
        PurgeLog.Record(
            kind: kind, purge: purge, library: library, id: photo.id, filename: photo.filename, takenAt: photo.takenAt,
            tags: tags, bytes: photo.bytes, path: path, reason: reason, at: clock.now()
        )
    }

    /// Settles the purges a kill left unfinished: a deletion asked for and not answered is settled by
    /// asking the server whether the photo is still there; then each purge is marked finished. The report
    /// says, of every photo those purges were to delete, which went and which are still on the server.
    /// A purge whose deletion in flight the server cannot be asked about now stays for the next time.
    func settleInterrupted() async throws -> PurgeSummary {
        var report = PurgeSummary()
        for (purge, records) in try log.interrupted(library: library) where !log.isRunning(purge) {
            var outcome: [Int: PurgeLog.Record.Kind] = [:]
            var unanswered: [Int: PurgeLog.Record] = [:]
            for record in records {
                switch record.kind {
                case .intent: unanswered[record.id] = record
                case .deleted, .failed:
                    outcome[record.id] = record.kind
                    unanswered[record.id] = nil
                case .kept, .planned, .finished: break
                }
            }
            var reachable = true
            for intent in unanswered.values.sorted(by: { $0.id < $1.id }) {
                let kind: PurgeLog.Record.Kind
                do {
                    _ = try await client.send(API.photo(id: intent.id))
                    kind = .failed
                } catch where error.status == 404 {
                    kind = .deleted
                } catch {
                    reachable = false
                    continue
                }
                var settled = intent
                settled.kind = kind
                settled.at = clock.now()
                settled.reason = kind == .failed ? "interrupted before the server answered; it is still there" : "interrupted; the server says it is gone"
                try log.append(settled)
                outcome[intent.id] = kind
            }
            guard reachable else { continue }
            // Every photo of the plan gets its outcome in the log: those never reached too.
            var settled: [PurgeLog.Record] = []
            var seen = Set<Int>()
            for record in records where (record.kind == .planned || record.kind == .intent) && seen.insert(record.id).inserted {
                switch outcome[record.id] {
                case .deleted?: report.deleted.append(record.id)
                case .failed?: report.failed[record.id] = "not deleted"
                default:
                    let reason = "never reached before the interruption; still on the server"
                    report.failed[record.id] = reason
                    var never = record
                    never.kind = .failed
                    never.at = clock.now()
                    never.reason = reason
                    settled.append(never)
                }
            }
            settled.append(PurgeLog.Record(kind: .finished, purge: purge, library: library, id: 0, reason: "interrupted; settled by a later start", at: clock.now()))
            try log.append(settled)
            log.forgetLock(purge)
        }
        report.deleted.sort()
        return report
    }

    private static func describe(_ error: any Error) -> String {
        (error as? any UserFacingError)?.userMessage ?? String(describing: error)
    }
}
