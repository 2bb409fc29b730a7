import Foundation
import PhotoPickKit

/// What the user did, as a front end tells it, grouped by the feature it concerns.
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
}

/// What the network, the disk and the clock reported, grouped by the feature it concerns. Only the
/// session's own effects send these (and tests and the bench, feeding a state by hand): a front end
/// cannot say that the server took an edit.
package enum BrowserReport: Sendable {
    case browsing(BrowsingReport)
    case tags(TagReport)
    case edits(EditReport)
    case purge(PurgeReport)
    case downloads(DownloadReport)
    case catalogue(CatalogueReport)
    case focus(FocusReport)
    case status(StatusReport)
    /// What the outbox and the download queue held at the start.
    case sessionStarted(outbox: [TagDelta], bulks: [TagBulk] = [], nextSequence: Int64, downloads: [DownloadItem], nextDownloadID: Int64)
}

/// Either, as a session's observers see each in turn.
package enum BrowserInput: Sendable {
    case event(BrowserEvent)
    case report(BrowserReport)
}
