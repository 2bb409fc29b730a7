import Foundation
import PhotoPickKit

/// Everything that can happen to a browsing session, named after what happened: what the user did,
/// and what the network, the disk and the clock reported.
public enum BrowserEvent: Sendable {
    // MARK: The user
    case cursorMoved(CursorMotion)
    case viewResized(rows: Int)
    case sortCycled
    case sortChosen(SortKey)
    case filterTextChanged(String)
    case tagFilterChanged(TagFilter)
    case dateRangeChanged(ClosedRange<Date>?)
    case onlySelectedToggled
    case filtersCleared
    /// Shows bursts as stacks, or every photo again.
    case stackingToggled
    /// Opens the stack under the cursor, or closes the open stack it is in.
    case stackOpened
    case selectionToggled
    case selectionToggledAndAdvanced
    /// `v`: starts a visual range at the cursor, or keeps the one in progress.
    case visualRangeToggled
    /// Leaves a visual range, restoring the selection from before it.
    case visualRangeCancelled
    case allMatchingSelected
    case selectionInverted
    case selectionCleared
    case tagToggled(tagID: Int)
    case tagNumberPressed(Int)
    case undoRequested
    /// `#` confirmed, or a script's `rm`: these photos are deleted from the server, their originals
    /// kept in the folder first when one is given.
    case purgeRequested([Int], keepOriginals: URL?)
    /// `E`, the editor, a time shift or a script's `edit`: these fields get these values.
    case photosEdited([PhotoFieldChange], summary: String? = nil)
    /// `P`, `X`, a rating or a label key: the mark goes on the targets, replacing its sibling.
    case markChosen(Mark)
    /// A mark key on one photo, not the selection or the cursor: the active photo of compare.
    case photoMarked(MarkKey, photoID: Int)
    /// Pick the sharpest frame of each burst listed (`SharpestFrames`).
    case sharpestFramesPicked
    /// `U` (flags) or `0` (ratings): the targets lose their mark of that family.
    case markCleared(Mark.Family)
    /// A label key: sets the label, or takes it off when every target already has it.
    case labelToggled(Mark.ColourLabel)
    /// A script's `tag add` or `tag rm`: the tag goes on (or comes off) exactly these photos, those that
    /// already have it (or lack it) left as they are; a mark's tag replaces its sibling.
    case tagEditRequested(tagID: Int, change: TagDelta.Change, photoIDs: [Int])
    /// Creates a tag, then adds it to the photos with these ids once the server has made it.
    case tagCreationRequested(name: String, color: String?, applyTo: [Int] = [])
    case tagRenameRequested(tagID: Int, name: String)
    case tagRecolourRequested(tagID: Int, color: String?)
    case tagDeletionRequested(tagID: Int)
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
    case loadingCancelled
    case loadingRetried
    /// `R`: check the library against the server now (or resume a stopped check).
    case refreshRequested
    case messageDismissed
    /// Something the front end wants on the status line, such as a warning about the config file.
    case noticePosted(StatusMessage.Severity, String)

    // MARK: The world
    case sessionStarted(outbox: [TagDelta], nextSequence: Int64, downloads: [DownloadItem], nextDownloadID: Int64)
    /// Tags the outbox still waits to create, sent before `sessionStarted` so its deltas find them.
    case pendingTagsRestored([PendingTag])
    case accountLoaded(Me)
    case accountFailed(String)
    case tagsLoaded([PhotoPickKit.Tag])
    case tagsFailed(String)
    /// What the catalogue held at the start; `notice` says when it was damaged and set aside. `at` is
    /// when it was read: the reducer reads no clock, so the age of the snapshot comes with it.
    case catalogueLoaded(Catalogue.Snapshot, notice: String?, at: Date = Date())
    /// A rendition of the photo was decoded and its focus measured (`FocusScore`).
    case focusMeasured(photoID: Int, score: Double)
    /// The hourly refresh came due.
    case refreshDue
    /// A page of the walk: new photos are added, changed ones updated in place.
    case photosArrived([Photo], nextCursor: String?)
    /// The walk saw every page; `deleted` are the photos it did not see, gone from the server. `at`
    /// is when: the library is "as of" then.
    case photosFinished(deleted: [Int] = [], at: Date = Date())
    case photosFailed(String)
    /// The server refused the listing's cursor: the walk starts over, skipping known photos.
    case photosCursorRefused
    case tagDeltasNotRecorded([TagDelta], reason: String)
    case tagDeltasSent(photoID: Int, sequences: [Int64], serverTagIDs: [Int])
    case tagDeltasRejected(photoID: Int, sequences: [Int64], reason: String)
    case tagSendingDelayed(reason: String)
    /// Photo edits the outbox held from the last session, sent before `sessionStarted`.
    case photoEditsRestored([PhotoEdit])
    case photoEditsNotRecorded([PhotoEdit], reason: String)
    /// The server took a photo's edits; `overwritten` are the fields it had changed since the user saw them.
    case photoEditsSent(photoID: Int, sequences: [Int64], photo: Photo, overwritten: [PhotoField])
    case photoEditsRejected(photoID: Int, sequences: [Int64], reason: String)
    case photoEditSendingDelayed(reason: String)
    /// A purge deleted (or failed to delete) one more photo.
    case purgeProgressed(PurgeReport)
    case purgeFinished(PurgeReport)
    /// Deletions a killed purge left unanswered, settled by asking the server.
    case interruptedPurgeSettled(PurgeReport)
    case tagSaved(PhotoPickKit.Tag)
    /// The server made a pending tag (or had one of its name): edits under its placeholder now name it.
    case tagCreated(PhotoPickKit.Tag, placeholderID: Int)
    /// The server refused a pending tag for good; its photos' deltas were reported rejected first.
    case tagCreationRejected(placeholderID: Int, reason: String)
    case tagDeleted(id: Int)
    case tagOperationFailed(String)
    /// The state database refused a write; the reason is a line for the user.
    case stateNotSaved(String)
    case downloadSpaceChecked([DownloadItem], needed: Int64, free: Int64?)
    /// The files of a request's finished downloads were read: the request goes on with what was found.
    case finishedDownloadsChecked(FinishedDownloadCheck, then: DownloadRequest)
    case downloadProgressed(id: Int64, run: Int, received: Int64, expected: Int64?, at: Double)
    case downloadFinished(id: Int64, run: Int, DownloadResult)
    case downloadFailed(id: Int64, run: Int, reason: String)
    case rateLimitChanged(RateLimitState)
    case messageExpired(id: Int)
}
