import Foundation
import PhotoPickKit

/// Deleting photos from the server, as asked.
public enum PurgeEvent: Sendable {
    /// `#` confirmed, or a script's `rm`: these photos are deleted from the server, their originals
    /// kept in the folder first when one is given.
    case purgeRequested([Int], keepOriginals: URL?)
}

/// How a purge goes, as the purger reports it: only the session's own effects send these.
package enum PurgeReport: Sendable {
    /// A purge deleted (or failed to delete) one more photo.
    case purgeProgressed(PurgeSummary)
    case purgeFinished(PurgeSummary)
    /// Deletions a killed purge left unanswered, settled by asking the server.
    case interruptedPurgeSettled(PurgeSummary)
}

/// A purge under way: how far it has got.
public struct PurgeProgress: Sendable, Equatable {
    /// Photos the purge was asked to delete.
    public let total: Int
    /// What it did so far.
    package var report = PurgeSummary()
    /// Photos deleted so far.
    public var deleted: Int { report.deleted.count }
    /// Photos it could not delete so far.
    public var failed: Int { report.failed.count }
}

/// Purging: deleting rejected photos from the server, their originals kept first. A room of its own
/// because it is the one irreversible act, with its own limit, log and report.
struct Purging: Sendable {
    /// The purge under way, if any.
    private(set) var purge: PurgeProgress?
    /// Photos one purge may delete at most (`purge_limit`).
    let limit: Int
    /// Where `#` keeps originals before deleting them (`keep_originals`), if anywhere.
    let keepOriginals: URL?
    /// What the server said of deletions a killed purge left unanswered; nil until the log is checked.
    private(set) var interrupted: PurgeSummary?

    /// What the parent passes: what the key may do, and the tag list, to name each photo's tags in the log.
    struct Context {
        let account: AccountStatus
        let tags: TagCatalog
    }

    init(limit: Int, keepOriginals: URL?) {
        self.limit = limit
        self.keepOriginals = keepOriginals
    }

    mutating func reduce(_ event: PurgeEvent, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch event {
        case .purgeRequested(let ids, let keepOriginals): return request(ids, keepOriginals: keepOriginals, &shared, context)
        }
    }

    mutating func receive(_ report: PurgeReport, _ shared: inout Shared) -> [BrowserEffect] {
        switch report {
        case .purgeProgressed(let report):
            purge?.report = report
            return []
        case .purgeFinished(let report):
            purge = nil
            let bytes = Self.bytes(ofPhotos: report.deleted, shared.library)
            return forgetDeleted(report.deleted, &shared) + shared.post(report.failed.isEmpty ? .info : .error, report.summary(bytes: bytes))
        case .interruptedPurgeSettled(let report):
            interrupted = report
            guard !report.deleted.isEmpty || !report.failed.isEmpty else { return [] }
            return forgetDeleted(report.deleted, &shared) + shared.post(.warning, "A purge was interrupted: " + report.interruptionSummary)
        }
    }

    /// Why these photos cannot be purged now, or nil: the key's scope, a purge under way, the limit.
    func problem(_ ids: [Int], account: AccountStatus, limit: Int) -> String? {
        if let reason = account.disabledReason(.purging) { return reason }
        if purge != nil { return "A purge is already under way." }
        if ids.isEmpty { return "Nothing to delete." }
        if ids.count > limit {
            return "\(ids.count.formatted()) photos is more than one purge deletes (\(limit.formatted())); purge in parts, or raise purge_limit in the config."
        }
        return nil
    }

    /// The bytes of the originals of these photos.
    static func bytes(ofPhotos ids: [Int], _ library: PhotoLibrary) -> Int64 {
        ids.compactMap(library.index(ofID:)).reduce(0) { $0 + library.bytes(at: $1) }
    }

    private mutating func request(_ ids: [Int], keepOriginals: URL?, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let problem = problem(ids, account: context.account, limit: limit) { return shared.post(.warning, problem) }
        let items = ids.compactMap(shared.library.index(ofID:)).map { index in
            let photo = shared.library.photo(at: index)
            return PurgeItem(photo: photo, tags: photo.tagIDs.compactMap { context.tags.tag(id: $0)?.name })
        }
        purge = PurgeProgress(total: items.count)
        let kept = keepOriginals.map { ", keeping the originals in \($0.path)" } ?? ""
        return [.purge(items, keepOriginals: keepOriginals)] + shared.post(.info, "Deleting \(Tagging.photos(items.count))\(kept)…")
    }

    /// Photos deleted from the server leave the list, the catalogue and both outboxes: an edit or a tag
    /// change waiting for one of them has nothing left to change.
    private func forgetDeleted(_ ids: [Int], _ shared: inout Shared) -> [BrowserEffect] {
        guard !ids.isEmpty else { return [] }
        for id in ids {
            if let index = shared.library.index(ofID: id) { shared.library.remove(at: index) }
        }
        shared.news.purged += ids
        return [.forgetPhotos(ids)]
    }
}
