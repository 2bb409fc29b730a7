import Foundation
import PhotoPickKit

/// Everything photopick shows and knows, as one value. `apply(_:)` is the only way it changes: it takes
/// an event and returns the effects to run, so every behaviour is testable without a network or a terminal.
public struct BrowserState: Sendable {
    /// Every photo loaded so far.
    public internal(set) var library = PhotoLibrary()
    /// Order, filter, cursor and the rows in view.
    public internal(set) var list = PhotoList()
    /// The chosen photos.
    public internal(set) var selection = Selection()
    /// The visual range in progress, if any.
    var visualRange: VisualRange?
    /// The list positions a visual range (`v`) covers, from its anchor to the cursor; nil outside one.
    public var visualPositions: ClosedRange<Int>? {
        visualRange.map { min($0.anchor, list.cursor)...max($0.anchor, list.cursor) }
    }
    /// Every tag, with counts.
    public internal(set) var tags = TagCatalog()
    /// How far loading has got.
    public internal(set) var loading = LoadingStatus()
    /// The download queue.
    public internal(set) var downloads = DownloadQueue()
    /// The variant `d` downloads.
    public internal(set) var downloadVariant = DownloadSize.original
    /// Where downloads go.
    public internal(set) var downloadDirectory: URL
    /// The key's name, scopes and rate limit.
    public internal(set) var account = AccountStatus()
    /// The status line's messages.
    public internal(set) var messages = StatusMessages()
    /// When the catalogue is checked against the server.
    internal(set) var refreshPolicy = RefreshPolicy.hourly
    /// Seconds between frames of one burst at most (`burst_gap`).
    internal(set) var burstGap: Double = 2
    /// The config's `[searches]`, in its order.
    public internal(set) var savedSearches: [SavedSearch] = []

    /// The tags the server confirmed for a photo during the walk under way: a page asked for before the
    /// write may arrive after it, and must not put the old set back.
    var confirmedTags: [Int: [Int]] = [:]
    /// The same for edited fields: the server's copy of a photo just after an edit was written, kept
    /// for the walk under way, whose older pages must not put the old values back.
    var confirmedEdits: [Int: Photo] = [:]
    /// Tag deltas recorded but not yet confirmed: the latest wish per photo and tag.
    var pendingDeltas = PendingTagDeltas()
    /// How many deltas are unconfirmed.
    public var unsentTagDeltas: Int { pendingDeltas.count }
    /// How many photos have tag changes not yet confirmed.
    var photosWithUnsentTags: Int { pendingDeltas.photoCount }
    /// The next delta's sequence; a pending tag's placeholder takes one too, negated.
    var nextSequence: Int64 = 1
    /// Tag and field edits made this session, newest last, for undo: one entry per key press, which may
    /// change several tags (a mark removes its siblings) or fields.
    var undoStack: [UndoStep] = []
    /// Photo edits recorded but not yet confirmed: the latest wish per photo and field.
    var pendingEdits = PendingEdits()
    /// The purge under way, if any.
    public internal(set) var purge: PurgeProgress?
    /// Photos one purge may delete at most (`purge_limit`).
    public internal(set) var purgeLimit = 500
    /// Where `#` keeps originals before deleting them (`keep_originals`), if anywhere.
    public internal(set) var keepOriginals: URL?
    /// The API's base URL, for the copy menu's API URL (never with a key).
    public internal(set) var apiURL: URL?
    /// What the server said of deletions a killed purge left unanswered; nil until the log is checked.
    public internal(set) var interruptedPurge: PurgeReport?
    /// How the replay of deltas restored from the last session goes, until none of them waits.
    var replay: Replay?

    /// The photos whose restored deltas were sent, or refused.
    struct Replay: Sendable {
        var sent = Set<Int>()
        var rejected = Set<Int>()
    }

    /// A state that will download into `downloadDirectory`, `concurrency` at a time.
    public init(
        downloadDirectory: URL, concurrency: Int = DownloadQueue.defaultConcurrency, refreshPolicy: RefreshPolicy = .hourly,
        markNames: MarkNames = MarkNames(), burstGap: Double = 2, savedSearches: [SavedSearch] = []
    ) {
        self.burstGap = burstGap
        self.savedSearches = savedSearches
        self.downloadDirectory = downloadDirectory
        self.refreshPolicy = refreshPolicy
        tags = TagCatalog(markNames: markNames)
        downloads.setConcurrency(concurrency)
    }

    /// The photo under the cursor, with every field.
    public var currentPhoto: Photo? {
        list.currentIndex.map(library.photo(at:))
    }

    /// Whether quitting now leaves work for the next start: downloads in progress or tag edits unsent
    /// (those waiting for a tag to be created included; the outbox keeps them all).
    public var hasUnfinishedWork: Bool {
        unsentTagDeltas > 0 || pendingEdits.count > 0 || purge != nil || downloads.hasPendingWork
    }

    /// Applies an event and returns the work it asks for.
    public mutating func apply(_ event: BrowserEvent) -> [BrowserEffect] {
        switch event {
        case .cursorMoved(let motion): return moveCursor(motion)
        case .viewResized(let rows):
            list.setPageHeight(rows)
            return []
        case .sortCycled: return setSort(list.sort.next)
        case .sortChosen(let sort): return setSort(sort)
        case .filterTextChanged(let text): return changeFilter { $0.text = text }
        case .tagFilterChanged(let tags): return changeFilter { $0.tags = tags }
        case .dateRangeChanged(let range): return changeFilter { $0.dateRange = range }
        case .onlySelectedToggled: return changeFilter { $0.onlySelected.toggle() }
        case .filtersCleared: return changeFilter { $0 = PhotoFilter() }
        case .selectionToggled: return toggleCurrent(advance: false)
        case .selectionToggledAndAdvanced: return toggleCurrent(advance: true)
        case .visualRangeToggled: return toggleVisualRange()
        case .visualRangeCancelled: return cancelVisualRange()
        case .allMatchingSelected: return selectAllMatching()
        case .selectionInverted: return invertSelection()
        case .selectionCleared: return clearSelection()
        case .tagToggled(let tagID): return toggleTag(tagID)
        case .tagNumberPressed(let number): return toggleTag(number: number)
        case .undoRequested: return undo()
        case .photosEdited(let changes, let summary): return editPhotos(changes, summary: summary)
        case .purgeRequested(let ids, let keepOriginals): return requestPurge(ids, keepOriginals: keepOriginals, limit: purgeLimit)
        case .purgeProgressed(let report): return purgeProgressed(report)
        case .purgeFinished(let report): return purgeFinished(report)
        case .interruptedPurgeSettled(let report): return interruptedPurgeSettled(report)
        case .stackingToggled: return toggleStacking()
        case .stackOpened: return toggleCurrentStack()
        case .markChosen(let mark): return setMark(mark)
        case .scriptDownloadRequested(let wanted, let variant, let root):
            return requestDownload(DownloadRequest(origin: .script, wanted: wanted, variant: variant, root: root))
        case .tagEditRequested(let tagID, let change, let photoIDs): return editTag(tagID, change, photoIDs: photoIDs)
        case .photoMarked(let key, let photoID): return mark(key, photoID: photoID)
        case .sharpestFramesPicked: return pickSharpestFrames()
        case .markCleared(let family): return clearMarks(family)
        case .labelToggled(let label): return toggleLabel(label)
        case .tagCreationRequested(let name, let color, let photoIDs): return requestTagCreation(name: name, color: color, applyTo: photoIDs)
        case .tagRenameRequested(let id, let name): return requestTagRename(id: id, name: name)
        case .tagRecolourRequested(let id, let color): return requestTagRecolour(id: id, color: color)
        case .tagDeletionRequested(let id): return requestTagDeletion(id: id)
        case .downloadRequested: return requestDownload(browserRequest)
        case .downloadVariantChosen(let variant):
            downloadVariant = variant
            return post(.info, "Downloads will fetch the \(variant.rawValue) variant.")
        case .downloadDirectoryChosen(let url):
            downloadDirectory = url
            return post(.info, "Downloads will go to \(url.path).")
        case .downloadPaused(let id): return pauseDownloads([id])
        case .downloadResumed(let id): return resumeDownloads([id])
        case .downloadCancelled(let id): return cancelDownloads([id])
        case .downloadRetried(let id): return retryDownloads([id])
        case .allDownloadsPaused: return pauseDownloads(downloads.items.map(\.id))
        case .allDownloadsResumed: return resumeDownloads(downloads.items.map(\.id))
        case .allDownloadsCancelled: return cancelDownloads(downloads.items.map(\.id))
        case .failedDownloadsRetried: return retryDownloads(downloads.items.map(\.id))
        case .finishedDownloadsCleared: return clearFinishedDownloads()
        case .downloadsForgotten(let ids): return forgetDownloads(ids)
        case .concurrencyChanged(let delta): return changeConcurrency(by: delta)
        case .loadingCancelled: return cancelLoading()
        case .loadingRetried: return retryLoading()
        case .refreshRequested: return refresh(asked: true)
        case .refreshDue: return refreshPolicy == .hourly ? refresh(asked: false) : []
        case .catalogueLoaded(let snapshot, let notice, let now): return catalogueLoaded(snapshot, notice: notice, at: now)
        case .focusMeasured(let photoID, let score): return focusMeasured(photoID: photoID, score: score)
        case .messageDismissed:
            messages.dismissCurrent()
            return []
        case .noticePosted(let severity, let text): return post(severity, text)
        case .sessionStarted(let outbox, let sequence, let restored, let downloadID):
            return start(outbox: outbox, nextSequence: sequence, downloads: restored, nextDownloadID: downloadID)
        case .pendingTagsRestored(let pending):
            for tag in pending { tags.addPending(tag) }
            return tagsChanged()
        case .accountLoaded(let me): return accountLoaded(me)
        case .accountFailed(let reason): return post(.warning, "Could not read the key's scopes: \(reason)")
        case .tagsLoaded(let tags):
            self.tags.replaceAll(tags)
            return tagsChanged()
        case .tagsFailed(let reason): return post(.error, "Could not load tags: \(reason)")
        case .photosArrived(let photos, _): return photosArrived(photos)
        case .photosFinished(let deleted, let now): return photosFinished(deleted: deleted, at: now)
        case .photosFailed(let reason): return photosFailed(reason)
        case .photosCursorRefused: return restartLoading()
        case .tagDeltasNotRecorded(let deltas, let reason): return rollBack(deltas, reason: "could not be saved (\(reason))")
        case .tagDeltasSent(let photoID, let sequences, let serverTagIDs):
            return deltasSent(photoID: photoID, sequences: sequences, serverTagIDs: serverTagIDs)
        case .tagDeltasRejected(let photoID, let sequences, let reason):
            return deltasRejected(photoID: photoID, sequences: sequences, reason: reason)
        case .tagSendingDelayed(let reason):
            return post(.warning, "Tag edits are saved and will be sent when the server answers: \(reason)")
        case .photoEditsRestored(let edits): return restoreEdits(edits)
        case .photoEditsNotRecorded(let edits, let reason): return photoEditsNotRecorded(edits, reason: reason)
        case .photoEditsSent(let photoID, let sequences, let photo, let overwritten):
            return photoEditsSent(photoID: photoID, sequences: sequences, photo: photo, overwritten: overwritten)
        case .photoEditsRejected(let photoID, let sequences, let reason): return photoEditsRejected(photoID: photoID, sequences: sequences, reason: reason)
        case .photoEditSendingDelayed(let reason):
            return post(.warning, "Edits are saved and will be sent when the server answers: \(reason)")
        case .tagSaved(let tag): return tagSaved(tag)
        case .tagCreated(let tag, let placeholderID): return tagCreated(tag, placeholderID: placeholderID)
        case .tagCreationRejected(let placeholderID, let reason): return tagCreationRejected(placeholderID, reason: reason)
        case .tagDeleted(let id): return tagDeleted(id)
        case .tagOperationFailed(let reason): return post(.error, reason)
        case .stateNotSaved(let reason): return post(.error, reason)
        case .downloadSpaceChecked(let items, let needed, let free): return spaceChecked(items, needed: needed, free: free)
        case .finishedDownloadsChecked(let check, let request): return finishedDownloadsChecked(check, then: request)
        case .downloadProgressed(let id, let run, let received, let expected, let seconds):
            downloads.recordProgress(id, run: run, received: received, expected: expected, at: seconds)
            return []
        case .downloadFinished(let id, let run, let result): return downloadFinished(id, run: run, result)
        case .downloadFailed(let id, let run, let reason): return downloadFailed(id, run: run, reason: reason)
        case .rateLimitChanged(let limit):
            account.rateLimit = limit
            return []
        case .messageExpired(let id):
            messages.expire(id)
            return []
        }
    }

    /// Posts a message; information and warnings are scheduled to fade, errors stay.
    mutating func post(_ severity: StatusMessage.Severity, _ text: String, remedy: StatusMessage.Remedy? = nil) -> [BrowserEffect] {
        guard let message = messages.post(severity, text, remedy: remedy), severity != .error else { return [] }
        return [.expireMessage(id: message.id)]
    }

    private mutating func start(outbox: [TagDelta], nextSequence: Int64, downloads restored: [DownloadItem], nextDownloadID: Int64) -> [BrowserEffect] {
        self.nextSequence = max(self.nextSequence, nextSequence)
        pendingDeltas = PendingTagDeltas(restoring: outbox, below: nextSequence)
        if !outbox.isEmpty { replay = Replay() }
        downloads.restore(restored, nextID: nextDownloadID)
        var effects = startDownloads()
        let resumed = restored.count { !$0.status.isFinished && $0.status != .paused && $0.status.failure == nil }
        if resumed > 0 { effects += post(.info, "Resuming \(resumed) download\(resumed == 1 ? "" : "s") from the last session.") }
        return effects
    }

    private mutating func accountLoaded(_ me: Me) -> [BrowserEffect] {
        account.update(with: me)
        if let reason = account.disabledReason(.tagging) { return post(.warning, reason) }
        return []
    }
}

extension DownloadItem.Status {
    /// The reason, when failed.
    public var failure: String? {
        if case .failed(let reason) = self { return reason }
        return nil
    }
}
