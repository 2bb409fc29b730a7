import Foundation
import PhotoPickKit

extension BrowserState {
    mutating func spaceChecked(_ items: [DownloadItem], needed: Int64, free: Int64?) -> [BrowserEffect] {
        guard let first = items.first else { return [] }
        if let free, needed > free {
            return tellKeptFiles() + post(.error, "Not enough space in \(first.directory.path): \(ByteText.format(needed)) needed, \(ByteText.format(free)) free. Free some space, or choose a smaller variant (o) or another folder.")
        }
        // A second press may have queued some of these while the space was being checked.
        let new = items.filter { downloads.item(photoID: $0.photoID, variant: $0.variant) == nil }
        guard !new.isEmpty else { return tellKeptFiles() }
        new.forEach { downloads.append($0) }
        let count = new.count == 1 ? "1 photo" : "\(new.count.formatted()) photos"
        return [.saveDownloads(new)] + startDownloads()
            + post(.info, "Queued \(count) (\(first.variant.rawValue)) for \(first.directory.path).") + tellKeptFiles()
    }

    /// Starts queued items while there are free slots.
    mutating func startDownloads() -> [BrowserEffect] {
        downloads.startNext().map(BrowserEffect.startDownload)
    }

    mutating func pauseDownloads(_ ids: [Int64]) -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        var changed: [DownloadItem] = []
        for id in ids {
            guard let item = downloads.item(id: id), item.status == .queued || item.status == .running else { continue }
            if item.status == .running { effects.append(.stopDownload(id: id)) }
            changed.append(downloads.update(id) { $0.status = .paused; $0.bytesPerSecond = nil }!)
        }
        guard !changed.isEmpty else { return [] }
        return effects + [.saveDownloads(changed)] + startDownloads()
    }

    mutating func resumeDownloads(_ ids: [Int64]) -> [BrowserEffect] {
        let changed = requeue(ids) { $0 == .paused }
        guard !changed.isEmpty else { return [] }
        return [.saveDownloads(changed)] + startDownloads()
    }

    mutating func retryDownloads(_ ids: [Int64]) -> [BrowserEffect] {
        let changed = requeue(ids) { $0.failure != nil }
        guard !changed.isEmpty else { return [] }
        return [.saveDownloads(changed)] + startDownloads()
    }

    private mutating func requeue(_ ids: [Int64], where isEligible: (DownloadItem.Status) -> Bool) -> [DownloadItem] {
        var changed: [DownloadItem] = []
        for id in ids {
            guard let item = downloads.item(id: id), isEligible(item.status) else { continue }
            changed.append(downloads.update(id) { $0.status = .queued }!)
        }
        return changed
    }

    /// Removes items that are not finished; their partial files go too.
    mutating func cancelDownloads(_ ids: [Int64]) -> [BrowserEffect] {
        let items = ids.compactMap(downloads.item(id:)).filter { !$0.status.isFinished }
        guard !items.isEmpty else { return [] }
        let stops = items.filter { $0.status == .running }.map { BrowserEffect.stopDownload(id: $0.id) }
        downloads.remove(Set(items.map(\.id)))
        return stops + [.deleteDownloads(items, discardPartials: true)] + startDownloads()
            + post(.info, items.count == 1 ? "Cancelled the download of \(items[0].filename)." : "Cancelled \(items.count) downloads.")
    }

    /// Drops finished items whose files a script removed; unfinished ones stay.
    mutating func forgetDownloads(_ ids: [Int64]) -> [BrowserEffect] {
        let items = ids.compactMap(downloads.item(id:)).filter(\.status.isFinished)
        guard !items.isEmpty else { return [] }
        downloads.remove(Set(items.map(\.id)))
        return [.deleteDownloads(items, discardPartials: false)]
    }

    mutating func clearFinishedDownloads() -> [BrowserEffect] {
        let finished = downloads.items.filter(\.status.isFinished)
        guard !finished.isEmpty else { return [] }
        downloads.remove(Set(finished.map(\.id)))
        return [.deleteDownloads(finished, discardPartials: false)]
    }

    mutating func changeConcurrency(by delta: Int) -> [BrowserEffect] {
        downloads.setConcurrency(downloads.concurrency + delta)
        return startDownloads() + post(.info, "Downloading \(downloads.concurrency) at a time.")
    }

    mutating func downloadFinished(_ id: Int64, run: Int, _ result: DownloadResult) -> [BrowserEffect] {
        guard let item = downloads.item(id: id), item.run == run, item.status == .running else { return [] }
        let updated = downloads.update(id) { item in
            item.status = result.outcome == .downloaded ? .done : .skipped
            item.receivedBytes = result.bytes
            item.totalBytes = result.bytes
            item.bytesPerSecond = nil
            item.resultPath = result.fileURL.path
            item.resumedFrom = result.resumedFrom
        }!
        var effects = [BrowserEffect.saveDownloads([updated])] + startDownloads()
        let totals = downloads.totals
        if totals.pending == 0 {
            effects += post(.info, "Downloads finished: \(totals.done) fetched, \(totals.skipped) already there, \(totals.failed) failed.")
        }
        return effects
    }

    mutating func downloadFailed(_ id: Int64, run: Int, reason: String) -> [BrowserEffect] {
        // A paused or cancelled run ends with an error too; only the live run's failure counts.
        guard let item = downloads.item(id: id), item.run == run, item.status == .running else { return [] }
        let updated = downloads.update(id) { $0.status = .failed(reason); $0.bytesPerSecond = nil }!
        return [.saveDownloads([updated])] + startDownloads()
            + post(.error, "Download of \(item.filename) failed: \(reason)", remedy: .retryDownload)
    }
}
