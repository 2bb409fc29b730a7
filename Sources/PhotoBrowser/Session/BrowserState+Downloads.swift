import Foundation
import PhotoPickKit

extension BrowserState {
    /// Queues the selection (or the photo under the cursor) in the chosen variant, after the driver has
    /// checked there is room for it. A photo and variant already queued is never queued again; one
    /// already downloaded is fetched again only into another folder, or when its file has gone; one
    /// queued, paused or failed in another folder moves to this one.
    mutating func requestDownload() -> [BrowserEffect] {
        if let reason = account.disabledReason(.downloading) { return post(.warning, reason) }
        var items: [DownloadItem] = []
        var alreadyQueued = 0, alreadyDone = 0
        var failedAgain: [Int64] = []
        var superseded: [DownloadItem] = [], replaced: [DownloadItem] = []
        var supersededIDs: Set<Int64> = []
        for index in tagTargets {
            let photo = library[index]
            // A superseded item is removed after the loop, in one pass; until then it counts as gone.
            if let existing = downloads.item(photoID: photo.id, variant: downloadVariant), !supersededIDs.contains(existing.id) {
                if existing.status.isFinished, !existing.isIn(downloadDirectory) || !existing.resultExists {
                    superseded.append(existing)
                    supersededIDs.insert(existing.id)
                } else if !existing.isIn(downloadDirectory) {
                    replaced.append(existing)
                    supersededIDs.insert(existing.id)
                } else {
                    switch existing.status {
                    case .done, .skipped: alreadyDone += 1
                    case .failed: failedAgain.append(existing.id)
                    default: alreadyQueued += 1
                    }
                    continue
                }
            }
            items.append(DownloadItem(
                id: downloads.nextID, photoID: photo.id, variant: downloadVariant, directory: downloadDirectory,
                filename: photo.filename, photoBytes: photo.bytes, takenAt: photo.takenAt, mimeType: library.string(photo.mimeType),
                estimatedBytes: DownloadItem.estimate(bytes: photo.bytes, width: photo.pixelWidth, height: photo.pixelHeight, variant: downloadVariant),
                status: .queued
            ))
            downloads.nextID += 1
        }
        if !supersededIDs.isEmpty { downloads.remove(supersededIDs) }
        var effects = retryDownloads(failedAgain)
        if !superseded.isEmpty { effects.append(.deleteDownloads(superseded, discardPartials: false)) }
        effects += replace(replaced)
        let skipped = [
            alreadyQueued > 0 ? "\(alreadyQueued) already queued" : nil,
            alreadyDone > 0 ? "\(alreadyDone) already downloaded" : nil,
        ].compactMap { $0 }
        if items.isEmpty {
            if !skipped.isEmpty { effects += post(.info, "Nothing new to download: \(skipped.joined(separator: ", ")).") }
            return effects
        }
        // Everything still to come into this folder counts, not only the new batch.
        let pending = downloads.items.filter { !$0.status.isFinished && $0.status.failure == nil && $0.directory == downloadDirectory }
            .reduce(Int64(0)) { $0 + max($1.expectedBytes - $1.receivedBytes, 0) }
        let needed = items.reduce(pending) { $0 + $1.estimatedBytes }
        if !skipped.isEmpty { effects += post(.info, "Skipping \(skipped.joined(separator: ", ")).") }
        return effects + [.checkSpace(items, directory: downloadDirectory, needed: needed)]
    }

    /// A script's downloads: like `requestDownload`, for the photos named and each into its own folder
    /// under `root`, under its own name.
    mutating func requestDownloads(_ wanted: [ScriptDownload], variant: DownloadSize, root: URL) -> [BrowserEffect] {
        if let reason = account.disabledReason(.downloading) { return post(.warning, reason) }
        var items: [DownloadItem] = []
        var failedAgain: [Int64] = [], paused: [Int64] = []
        var superseded: [DownloadItem] = [], replaced: [DownloadItem] = []
        var supersededIDs: Set<Int64> = []
        for request in wanted {
            guard let index = library.index(ofID: request.photoID) else { continue }
            let photo = library[index]
            let directory = request.directory(under: root)
            if let existing = downloads.item(photoID: photo.id, variant: variant), !supersededIDs.contains(existing.id) {
                if existing.status.isFinished, !existing.isIn(directory) || !existing.resultExists {
                    superseded.append(existing)
                    supersededIDs.insert(existing.id)
                } else if !existing.isIn(directory) {
                    replaced.append(existing)
                    supersededIDs.insert(existing.id)
                } else {
                    // Already on its way: a script asking for it again wants it now, so a failed one is
                    // retried and one paused in the browser goes on.
                    if existing.status.failure != nil { failedAgain.append(existing.id) }
                    if existing.status == .paused { paused.append(existing.id) }
                    continue
                }
            }
            var item = DownloadItem(
                id: downloads.nextID, photoID: photo.id, variant: variant, directory: directory,
                filename: request.filename ?? photo.filename, photoBytes: photo.bytes, takenAt: photo.takenAt, mimeType: library.string(photo.mimeType),
                estimatedBytes: DownloadItem.estimate(bytes: photo.bytes, width: photo.pixelWidth, height: photo.pixelHeight, variant: variant),
                status: .queued
            )
            if !request.folders.isEmpty { item.root = root }
            items.append(item)
            downloads.nextID += 1
        }
        if !supersededIDs.isEmpty { downloads.remove(supersededIDs) }
        var effects = retryDownloads(failedAgain) + resumeDownloads(paused)
        if !superseded.isEmpty { effects.append(.deleteDownloads(superseded, discardPartials: false)) }
        effects += replace(replaced)
        guard !items.isEmpty else { return effects }
        let needed = items.reduce(Int64(0)) { $0 + $1.estimatedBytes }
        return effects + [.checkSpace(items, directory: root, needed: needed)]
    }

    /// Unfinished items asked for again into another folder: the folder asked for now is where they go,
    /// so they are stopped and dropped (their partial files with them), never resumed or retried where
    /// they were first asked. The caller queues them anew. Already out of `downloads`.
    private func replace(_ items: [DownloadItem]) -> [BrowserEffect] {
        guard !items.isEmpty else { return [] }
        let stops = items.filter { $0.status == .running }.map { BrowserEffect.stopDownload(id: $0.id) }
        return stops + [.deleteDownloads(items, discardPartials: true)]
    }

    mutating func spaceChecked(_ items: [DownloadItem], needed: Int64, free: Int64?) -> [BrowserEffect] {
        guard let first = items.first else { return [] }
        if let free, needed > free {
            return post(.error, "Not enough space in \(first.directory.path): \(ByteText.format(needed)) needed, \(ByteText.format(free)) free. Free some space, or choose a smaller variant (o) or another folder.")
        }
        // A second press may have queued some of these while the space was being checked.
        let new = items.filter { downloads.item(photoID: $0.photoID, variant: $0.variant) == nil }
        guard !new.isEmpty else { return [] }
        new.forEach { downloads.append($0) }
        let count = new.count == 1 ? "1 photo" : "\(new.count.formatted()) photos"
        return [.saveDownloads(new)] + startDownloads()
            + post(.info, "Queued \(count) (\(first.variant.rawValue)) for \(first.directory.path).")
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
