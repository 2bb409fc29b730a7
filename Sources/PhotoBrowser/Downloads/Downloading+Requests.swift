import Foundation
import PhotoPickKit

extension Downloading {
    /// Queues what a request asks for, after the driver has checked there is room. A photo and variant
    /// already queued is never queued again. One already downloaded into the same folder counts as there
    /// only while its file is exactly as photopick wrote it: the state reads no file, so it asks the session
    /// to check first and goes on at `.finishedDownloadsChecked`. One queued, paused or failed in another
    /// folder moves to this one. A script's request also resumes its paused items; the browser's says
    /// what it skipped.
    mutating func request(_ request: DownloadRequest, check: FinishedDownloadCheck? = nil, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        if let reason = context.account.disabledReason(.downloading) { return shared.post(.warning, reason) }
        if check == nil {
            let finished = finishedItems(request)
            if !finished.isEmpty {
                queue.fileChecksUnderWay += 1
                return [.checkFinishedDownloads(finished, then: request)]
            }
        }
        let sorted = sort(request, check: check ?? FinishedDownloadCheck(), shared.library)
        if !sorted.removed.isEmpty { queue.remove(sorted.removed) }
        var effects = retry(sorted.retried) + resume(sorted.resumed)
        if !sorted.superseded.isEmpty { effects.append(.deleteDownloads(sorted.superseded, discardPartials: false)) }
        effects += replace(sorted.replaced)
        switch request.origin {
        case .script:
            guard !sorted.new.isEmpty else { return effects }
            return effects + [.checkSpace(sorted.new, directory: request.root, needed: sorted.new.reduce(Int64(0)) { $0 + $1.estimatedBytes })]
        case .browser:
            return effects + queueForBrowser(sorted, into: request.root, &shared)
        }
    }

    /// The files of a request's finished downloads were read: one of ours changed since is the user's
    /// now (its record goes, and it is named once), and the request goes on with what was found.
    mutating func finishedDownloadsChecked(_ check: FinishedDownloadCheck, then request: DownloadRequest, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        queue.fileChecksUnderWay = max(0, queue.fileChecksUnderWay - 1)
        // Two checks under way at once (a second `d`) may both find the same file: it is named once.
        let told = Set(queue.keptFiles)
        let kept = check.changed.values.filter { !told.contains($0) }.sorted()
        queue.keptFiles += kept
        queue.keptUntold += kept.count
        return (kept.isEmpty ? [] : [.forgetWrittenFiles(kept)]) + self.request(request, check: check, &shared, context)
    }

    /// Counts the kept files on the status line, once: after the news of what was queued, so it is what shows.
    mutating func tellKeptFiles(_ shared: inout Shared) -> [BrowserEffect] {
        guard queue.keptUntold > 0 else { return [] }
        let count = queue.keptUntold
        queue.keptUntold = 0
        if count == 1, let path = queue.keptFiles.last {
            return shared.post(.warning, "Kept \(path): it changed since it was downloaded; fetching the photo again.")
        }
        return shared.post(.warning, "Kept \(count) files that changed since they were downloaded; fetching those photos again.")
    }

    /// The request's finished items already in the folder it asks for: their files decide.
    private func finishedItems(_ request: DownloadRequest) -> [DownloadItem] {
        var seen: Set<Int64> = []
        return request.wanted.compactMap { wanted in
            guard let item = queue.item(photoID: wanted.photoID, variant: request.variant), item.status.isFinished,
                  item.isIn(wanted.directory(under: request.root)), seen.insert(item.id).inserted
            else { return nil }
            return item
        }
    }

    /// Sorts the request's photos by what each needs; new items take ids here.
    private mutating func sort(_ request: DownloadRequest, check: FinishedDownloadCheck, _ library: PhotoLibrary) -> SortedRequest {
        var sorted = SortedRequest()
        for wanted in request.wanted {
            guard let index = library.index(ofID: wanted.photoID) else { continue }
            let photo = library.photo(at: index)
            let directory = wanted.directory(under: request.root)
            // A superseded item is removed after the loop, in one pass; until then it counts as gone.
            if let existing = queue.item(photoID: photo.id, variant: request.variant), !sorted.removed.contains(existing.id) {
                if existing.status.isFinished, !existing.isIn(directory) || !check.isAlreadyThere(existing) {
                    sorted.superseded.append(existing)
                    sorted.removed.insert(existing.id)
                } else if !existing.isIn(directory) {
                    sorted.replaced.append(existing)
                    sorted.removed.insert(existing.id)
                } else {
                    sorted.count(existing, origin: request.origin)
                    continue
                }
            }
            var item = DownloadItem(
                id: queue.nextID, photoID: photo.id, variant: request.variant, directory: directory,
                filename: wanted.filename ?? photo.filename, photoBytes: photo.bytes, takenAt: photo.takenAt, mimeType: photo.mimeType,
                estimatedBytes: DownloadItem.estimate(bytes: photo.bytes, width: photo.width, height: photo.height, variant: request.variant),
                status: .queued
            )
            if !wanted.folders.isEmpty { item.root = request.root }
            sorted.new.append(item)
            queue.nextID += 1
        }
        return sorted
    }

    /// The browser's new items, with a line on what was skipped; the space needed counts everything still
    /// to come into the folder, not only the new batch.
    private mutating func queueForBrowser(_ sorted: SortedRequest, into folder: URL, _ shared: inout Shared) -> [BrowserEffect] {
        let skipped = [
            sorted.alreadyQueued > 0 ? "\(sorted.alreadyQueued) already queued" : nil,
            sorted.alreadyDone > 0 ? "\(sorted.alreadyDone) already downloaded" : nil,
        ].compactMap { $0 }
        if sorted.new.isEmpty {
            return skipped.isEmpty ? [] : shared.post(.info, "Nothing new to download: \(skipped.joined(separator: ", ")).")
        }
        let pending = queue.items.filter { !$0.status.isFinished && $0.status.failure == nil && $0.directory == folder }
            .reduce(Int64(0)) { $0 + max($1.expectedBytes - $1.receivedBytes, 0) }
        let needed = sorted.new.reduce(pending) { $0 + $1.estimatedBytes }
        let effects = skipped.isEmpty ? [] : shared.post(.info, "Skipping \(skipped.joined(separator: ", ")).")
        return effects + [.checkSpace(sorted.new, directory: folder, needed: needed)]
    }

    /// Unfinished items asked for again into another folder: the folder asked for now is where they go,
    /// so they are stopped and dropped (their partial files with them), never resumed or retried where
    /// they were first asked. The caller queues them anew. Already out of `downloads`.
    private func replace(_ items: [DownloadItem]) -> [BrowserEffect] {
        guard !items.isEmpty else { return [] }
        let stops = items.filter { $0.status == .running }.map { BrowserEffect.stopDownload(id: $0.id) }
        return stops + [.deleteDownloads(items, discardPartials: true)]
    }
}

/// A request's photos, sorted by what each needs.
private struct SortedRequest {
    var new: [DownloadItem] = []
    var alreadyQueued = 0, alreadyDone = 0
    var retried: [Int64] = [], resumed: [Int64] = []
    /// Finished items to fetch again: into another folder, or their files are no longer as written.
    var superseded: [DownloadItem] = []
    /// Unfinished items asked for into another folder.
    var replaced: [DownloadItem] = []
    var removed: Set<Int64> = []

    /// An item already in the folder asked for: a failed one is retried; a paused one goes on when a
    /// script asks (it wants it now), and stays paused for the browser's `d`.
    mutating func count(_ item: DownloadItem, origin: DownloadRequest.Origin) {
        switch item.status {
        case .done, .skipped: alreadyDone += 1
        case .failed: retried.append(item.id)
        case .paused where origin == .script: resumed.append(item.id)
        default: alreadyQueued += 1
        }
    }
}
