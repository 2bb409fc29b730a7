import Foundation
import PhotoPickKit
import PhotoPickFormats

/// What the user and the scripts ask of downloads.
public enum DownloadEvent: Sendable {
    case downloadRequested
    /// A script's `get`: these photos in this variant, each into `root` joined with its relative folder
    /// (already made safe) and under its name, whatever the selection.
    case scriptDownloadRequested([ScriptDownload], variant: DownloadSize, root: URL)
    case downloadVariantChosen(DownloadSize)
    case downloadDirectoryChosen(URL)
    case downloadPaused(id: Int64)
    case downloadResumed(id: Int64)
    case downloadCancelled(id: Int64)
    case downloadRetried(id: Int64)
    case allDownloadsPaused
    case allDownloadsResumed
    case allDownloadsCancelled
    case failedDownloadsRetried
    case finishedDownloadsCleared
    /// `sync --delete` removed these finished downloads' files: the queue forgets them.
    case downloadsForgotten([Int64])
    case concurrencyChanged(by: Int)
}

/// What the disk and the transfers report: only the session's own effects send these.
package enum DownloadReport: Sendable {
    case downloadSpaceChecked([DownloadItem], needed: Int64, free: Int64?)
    /// The files of a request's finished downloads were read: the request goes on with what was found.
    case finishedDownloadsChecked(FinishedDownloadCheck, then: DownloadRequest)
    case downloadProgressed(id: Int64, run: Int, received: Int64, expected: Int64?, at: Double)
    case downloadFinished(id: Int64, run: Int, DownloadResult)
    case downloadFailed(id: Int64, run: Int, reason: String)
}

/// Downloads: the queue, the variant and the folder. A room of its own because it outlives the
/// session (the queue is restored on the next start) and reads the photos only to name them.
struct Downloading: Sendable {
    /// The download queue.
    var queue = DownloadQueue()
    /// The variant `d` downloads.
    private(set) var variant: DownloadSize
    /// Where downloads go.
    private(set) var directory: URL
    /// Which files of a RAW+JPEG pair `d` takes.
    let pairs: PairDownloads

    /// What the parent passes: what the user points at and what the key may do.
    struct Context {
        let selection: Selection
        let cursorIndex: Int?
        let account: AccountStatus
        /// The other file of a closed RAW+JPEG pair whose row a photo is, if any.
        var partner: (Int) -> Int? = { _ in nil }

        /// The selection, or the photo under the cursor when nothing is selected.
        var targets: [Int] {
            selection.isEmpty ? cursorIndex.map { [$0] } ?? [] : selection.indices
        }
    }

    init(directory: URL, variant: DownloadSize, concurrency: Int, pairs: PairDownloads = .both) {
        self.directory = directory
        self.variant = variant
        self.pairs = pairs
        queue.setConcurrency(concurrency)
    }

    mutating func reduce(_ event: DownloadEvent, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch event {
        case .downloadRequested:
            var seen = Set<Int>()
            let files = context.targets.flatMap { index in
                pairs.choose([index] + [context.partner(index)].compactMap { $0 }, pairs: shared.library.pairs)
            }.filter { seen.insert($0).inserted }
            let wanted = files.map { ScriptDownload(photoID: shared.library.id(at: $0)) }
            return request(DownloadRequest(origin: .browser, wanted: wanted, variant: variant, root: directory), &shared, context)
        case .scriptDownloadRequested(let wanted, let variant, let root):
            return request(DownloadRequest(origin: .script, wanted: wanted, variant: variant, root: root), &shared, context)
        case .downloadVariantChosen(let variant):
            self.variant = variant
            return shared.post(.info, "Downloads will fetch the \(variant.rawValue) variant.")
        case .downloadDirectoryChosen(let url):
            directory = url
            return shared.post(.info, "Downloads will go to \(url.path).")
        case .downloadPaused(let id): return pause([id])
        case .downloadResumed(let id): return resume([id])
        case .downloadCancelled(let id): return cancel([id], &shared)
        case .downloadRetried(let id): return retry([id])
        case .allDownloadsPaused: return pause(queue.items.map(\.id))
        case .allDownloadsResumed: return resume(queue.items.map(\.id))
        case .allDownloadsCancelled: return cancel(queue.items.map(\.id), &shared)
        case .failedDownloadsRetried: return retry(queue.items.map(\.id))
        case .finishedDownloadsCleared: return clearFinished()
        case .downloadsForgotten(let ids): return forget(ids)
        case .concurrencyChanged(let delta):
            queue.setConcurrency(queue.concurrency + delta)
            return startNext() + shared.post(.info, "Downloading \(queue.concurrency) at a time.")
        }
    }

    mutating func receive(_ report: DownloadReport, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch report {
        case .downloadSpaceChecked(let items, let needed, let free): return spaceChecked(items, needed: needed, free: free, &shared)
        case .finishedDownloadsChecked(let check, let request): return finishedDownloadsChecked(check, then: request, &shared, context)
        case .downloadProgressed(let id, let run, let received, let expected, let seconds):
            queue.recordProgress(id, run: run, received: received, expected: expected, at: seconds)
            return []
        case .downloadFinished(let id, let run, let result): return finished(id, run: run, result, &shared)
        case .downloadFailed(let id, let run, let reason): return failed(id, run: run, reason: reason, &shared)
        }
    }

    /// Takes the queue a previous session left, and resumes what was under way.
    mutating func restore(_ restored: [DownloadItem], nextID: Int64, _ shared: inout Shared) -> [BrowserEffect] {
        queue.restore(restored, nextID: nextID)
        var effects = startNext()
        let resumed = restored.count { !$0.status.isFinished && $0.status != .paused && $0.status.failure == nil }
        if resumed > 0 { effects += shared.post(.info, "Resuming \(resumed) download\(resumed == 1 ? "" : "s") from the last session.") }
        return effects
    }

    /// Starts queued items while there are free slots.
    mutating func startNext() -> [BrowserEffect] {
        queue.startNext().map(BrowserEffect.startDownload)
    }

    private mutating func spaceChecked(_ items: [DownloadItem], needed: Int64, free: Int64?, _ shared: inout Shared) -> [BrowserEffect] {
        guard let first = items.first else { return [] }
        if let free, needed > free {
            return tellKeptFiles(&shared) + shared.post(.error, "Not enough space in \(first.directory.path): \(Figures.bytes(needed)) needed, \(Figures.bytes(free)) free. Free some space, or choose a smaller variant (o) or another folder.")
        }
        // A second press may have queued some of these while the space was being checked.
        let new = items.filter { queue.item(photoID: $0.photoID, variant: $0.variant) == nil }
        guard !new.isEmpty else { return tellKeptFiles(&shared) }
        new.forEach { queue.append($0) }
        let count = new.count == 1 ? "1 photo" : "\(new.count.formatted()) photos"
        return [.saveDownloads(new)] + startNext()
            + shared.post(.info, "Queued \(count) (\(first.variant.rawValue)) for \(first.directory.path).") + tellKeptFiles(&shared)
    }

    mutating func pause(_ ids: [Int64]) -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        var changed: [DownloadItem] = []
        for id in ids {
            guard let item = queue.item(id: id), item.status == .queued || item.status == .running else { continue }
            if item.status == .running { effects.append(.stopDownload(id: id)) }
            changed.append(queue.update(id) { $0.status = .paused; $0.bytesPerSecond = nil }!)
        }
        guard !changed.isEmpty else { return [] }
        return effects + [.saveDownloads(changed)] + startNext()
    }

    mutating func resume(_ ids: [Int64]) -> [BrowserEffect] {
        let changed = requeue(ids) { $0 == .paused }
        guard !changed.isEmpty else { return [] }
        return [.saveDownloads(changed)] + startNext()
    }

    mutating func retry(_ ids: [Int64]) -> [BrowserEffect] {
        let changed = requeue(ids) { $0.failure != nil }
        guard !changed.isEmpty else { return [] }
        return [.saveDownloads(changed)] + startNext()
    }

    private mutating func requeue(_ ids: [Int64], where isEligible: (DownloadItem.Status) -> Bool) -> [DownloadItem] {
        var changed: [DownloadItem] = []
        for id in ids {
            guard let item = queue.item(id: id), isEligible(item.status) else { continue }
            changed.append(queue.update(id) { $0.status = .queued }!)
        }
        return changed
    }

    /// Removes items that are not finished; their partial files go too.
    private mutating func cancel(_ ids: [Int64], _ shared: inout Shared) -> [BrowserEffect] {
        let items = ids.compactMap(queue.item(id:)).filter { !$0.status.isFinished }
        guard !items.isEmpty else { return [] }
        let stops = items.filter { $0.status == .running }.map { BrowserEffect.stopDownload(id: $0.id) }
        queue.remove(Set(items.map(\.id)))
        return stops + [.deleteDownloads(items, discardPartials: true)] + startNext()
            + shared.post(.info, items.count == 1 ? "Cancelled the download of \(items[0].filename)." : "Cancelled \(items.count) downloads.")
    }

    /// Drops finished items whose files a script removed; unfinished ones stay.
    private mutating func forget(_ ids: [Int64]) -> [BrowserEffect] {
        let items = ids.compactMap(queue.item(id:)).filter(\.status.isFinished)
        guard !items.isEmpty else { return [] }
        queue.remove(Set(items.map(\.id)))
        return [.deleteDownloads(items, discardPartials: false)]
    }

    private mutating func clearFinished() -> [BrowserEffect] {
        let finished = queue.items.filter(\.status.isFinished)
        guard !finished.isEmpty else { return [] }
        queue.remove(Set(finished.map(\.id)))
        return [.deleteDownloads(finished, discardPartials: false)]
    }

    private mutating func finished(_ id: Int64, run: Int, _ result: DownloadResult, _ shared: inout Shared) -> [BrowserEffect] {
        guard let item = queue.item(id: id), item.run == run, item.status == .running else { return [] }
        let updated = queue.update(id) { item in
            item.status = result.outcome == .downloaded ? .done : .skipped
            item.receivedBytes = result.bytes
            item.totalBytes = result.bytes
            item.bytesPerSecond = nil
            item.resultPath = result.fileURL.path
            item.resumedFrom = result.resumedFrom
        }!
        var effects = [BrowserEffect.saveDownloads([updated])] + startNext()
        let totals = queue.totals
        if totals.pending == 0 {
            effects += shared.post(.info, "Downloads finished: \(totals.done) fetched, \(totals.skipped) already there, \(totals.failed) failed.")
        }
        return effects
    }

    private mutating func failed(_ id: Int64, run: Int, reason: String, _ shared: inout Shared) -> [BrowserEffect] {
        // A paused or cancelled run ends with an error too; only the live run's failure counts.
        guard let item = queue.item(id: id), item.run == run, item.status == .running else { return [] }
        let updated = queue.update(id) { $0.status = .failed(reason); $0.bytesPerSecond = nil }!
        return [.saveDownloads([updated])] + startNext()
            + shared.post(.error, "Download of \(item.filename) failed: \(reason)", remedy: .retryDownload)
    }
}

extension DownloadItem.Status {
    /// The reason, when failed.
    public var failure: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }
}
