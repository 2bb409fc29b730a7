import Foundation
import PhotoPickKit

/// Everything that can happen to a browsing session, named after what happened and grouped by the
/// feature it concerns: what the user did, and what the network, the disk and the clock reported.
public enum BrowserEvent: Sendable {
    case browsing(BrowsingEvent)
    case selection(SelectionEvent)
    case tags(TagEvent)
    case edits(EditEvent)
    case purge(PurgeEvent)
    case downloads(DownloadEvent)
    case catalogue(CatalogueEvent)
    case focus(FocusEvent)
    case status(StatusEvent)
    /// `u`: the last press's tag or field changes are undone, whichever it made.
    case undoRequested
    /// What the outbox and the download queue held at the start.
    case sessionStarted(outbox: [TagDelta], nextSequence: Int64, downloads: [DownloadItem], nextDownloadID: Int64)
}
