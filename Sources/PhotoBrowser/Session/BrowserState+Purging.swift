import Foundation
import PhotoPickKit

/// A purge under way: how far it has got.
public struct PurgeProgress: Sendable, Equatable {
    /// Photos the purge was asked to delete.
    public let total: Int
    /// What it did so far.
    public var report = PurgeReport()
}

extension BrowserState {
    /// The rejected photos in the list as filtered now: what `#` offers to delete.
    public var rejectedInList: [Int] {
        guard let reject = tags.tag(named: tags.markNames.name(of: .flag(.reject))) else { return [] }
        return list.libraryIndices.filter { library[$0].tagIDs.contains(reject.id) }.map { library.id(at: $0) }
    }

    /// The bytes of the originals of these photos.
    public func bytes(ofPhotos ids: [Int]) -> Int64 {
        ids.compactMap(library.index(ofID:)).reduce(0) { $0 + library[$1].bytes }
    }

    /// Why these photos cannot be purged now, or nil: the key's scope, a purge under way, the limit.
    public func purgeProblem(_ ids: [Int], limit: Int) -> String? {
        if let reason = account.disabledReason(.purging) { return reason }
        if purge != nil { return "A purge is already under way." }
        if ids.isEmpty { return "Nothing to delete." }
        if ids.count > limit {
            return "\(ids.count.formatted()) photos is more than one purge deletes (\(limit.formatted())); purge in parts, or raise purge_limit in the config."
        }
        return nil
    }

    mutating func requestPurge(_ ids: [Int], keepOriginals: URL?, limit: Int) -> [BrowserEffect] {
        if let problem = purgeProblem(ids, limit: limit) { return post(.warning, problem) }
        let items = ids.compactMap(library.index(ofID:)).map { index in
            let photo = library.photo(at: index)
            return PurgeItem(photo: photo, tags: photo.tagIDs.compactMap { tags.tag(id: $0)?.name })
        }
        purge = PurgeProgress(total: items.count)
        let kept = keepOriginals.map { ", keeping the originals in \($0.path)" } ?? ""
        return [.purge(items, keepOriginals: keepOriginals)] + post(.info, "Deleting \(photos(items.count))\(kept)…")
    }

    mutating func purgeProgressed(_ report: PurgeReport) -> [BrowserEffect] {
        purge?.report = report
        return []
    }

    mutating func purgeFinished(_ report: PurgeReport) -> [BrowserEffect] {
        purge = nil
        let bytes = bytes(ofPhotos: report.deleted)
        let effects = forgetDeleted(report.deleted)
        return effects + post(report.failed.isEmpty ? .info : .error, report.summary(bytes: bytes))
    }

    /// Photos deleted from the server leave the list, the catalogue and both outboxes: an edit or a tag
    /// change waiting for one of them has nothing left to change.
    private mutating func forgetDeleted(_ ids: [Int]) -> [BrowserEffect] {
        guard !ids.isEmpty else { return [] }
        removePhotos(ids)
        for id in ids {
            if let edits = pendingEdits[id] { pendingEdits.remove(of: id, sequences: Set(edits.map(\.sequence))) }
            pendingDeltas.remove(of: id) { _ in true }
        }
        return [.forgetPhotos(ids)]
    }

    /// What the server said of deletions a killed purge left unanswered.
    mutating func interruptedPurgeSettled(_ report: PurgeReport) -> [BrowserEffect] {
        interruptedPurge = report
        guard !report.deleted.isEmpty || !report.failed.isEmpty else { return [] }
        let effects = forgetDeleted(report.deleted)
        return effects + post(.warning, "A purge was interrupted: " + report.interruptionSummary)
    }
}
