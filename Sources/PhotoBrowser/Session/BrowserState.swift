import Foundation
import PhotoPickKit

/// Everything photopick shows and knows, as one value: a parent over one room per thing the user does
/// (browsing, selection, tags and marks, edits, purge, downloads, the catalogue, looking closely, the
/// status bar). `apply(_:at:)` is the only way it changes: it routes an event to its room, passes the
/// room's news to the others, and returns the effects to run, so every behaviour is testable without a
/// network, a terminal or a clock.
public struct BrowserState: Sendable {
    var shared = Shared()
    var browsing: Browsing
    var selecting = Selecting()
    var tagging: Tagging
    var editing = Editing()
    var purging: Purging
    var downloading: Downloading
    var cataloguing: Cataloguing
    let focusing = Focusing()
    var statusBar = StatusBar()
    /// The API's base URL, for the copy menu's API URL (never with a key).
    public let apiURL: URL?

    /// A state that will download `downloadVariant` into `downloadDirectory`, `concurrency` at a time,
    /// with the config's marks, bursts, searches and purge settings.
    package init(
        downloadDirectory: URL, downloadVariant: DownloadSize = .original, concurrency: Int = DownloadQueue.defaultConcurrency,
        refreshPolicy: RefreshPolicy = .hourly, markNames: MarkNames = MarkNames(), burstGap: Double = 2, savedSearches: [SavedSearch] = [],
        purgeLimit: Int = 500, keepOriginals: URL? = nil, pairDownloads: PairDownloads = .both, apiURL: URL? = nil
    ) {
        browsing = Browsing(burstGap: burstGap, savedSearches: savedSearches)
        tagging = Tagging(markNames: markNames)
        purging = Purging(limit: purgeLimit, keepOriginals: keepOriginals)
        downloading = Downloading(directory: downloadDirectory, variant: downloadVariant, concurrency: concurrency, pairs: pairDownloads)
        cataloguing = Cataloguing(refreshPolicy: refreshPolicy)
        self.apiURL = apiURL
    }

    // MARK: - What the views read

    /// Every photo loaded so far.
    public var library: PhotoLibrary { shared.library }
    /// Order, filter, cursor and the rows in view.
    public var list: PhotoList { browsing.list }
    /// The chosen photos.
    public var selection: Selection { selecting.selection }
    /// The list positions a visual range (`v`) covers, from its anchor to the cursor; nil outside one.
    public var visualPositions: ClosedRange<Int>? { selecting.visualPositions(cursor: list.cursor) }
    /// Every tag.
    public var tags: TagCatalog { tagging.tags }
    /// How far loading has got.
    public var loading: LoadingStatus { cataloguing.loading }
    /// The download queue.
    public var downloads: DownloadQueue { downloading.queue }
    /// The variant `d` downloads.
    public var downloadVariant: DownloadSize { downloading.variant }
    /// Which files of a RAW+JPEG pair `d` and `get` take.
    package var pairDownloads: PairDownloads { downloading.pairs }
    /// Where downloads go.
    public var downloadDirectory: URL { downloading.directory }
    /// The key's name, scopes and rate limit.
    public var account: AccountStatus { statusBar.account }
    /// The status line's messages.
    package var messages: StatusMessages { shared.messages }
    /// What the status line shows: the newest error while any is pending, else the newest message.
    public var message: StatusMessage? { shared.messages.current }
    /// The config's `[searches]`, in its order.
    public var savedSearches: [SavedSearch] { browsing.savedSearches }
    /// The purge under way, if any.
    public var purge: PurgeProgress? { purging.purge }
    /// Photos one purge may delete at most (`purge_limit`).
    package var purgeLimit: Int { purging.limit }
    /// Where `#` keeps originals before deleting them (`keep_originals`), if anywhere.
    public var keepOriginals: URL? { purging.keepOriginals }
    /// What the server said of deletions a killed purge left unanswered; nil until the log is checked.
    package var interruptedPurge: PurgeSummary? { purging.interrupted }

    /// The photo under the cursor, with every field.
    public var currentPhoto: Photo? {
        list.currentIndex.map(library.photo(at:))
    }

    /// The other file of the RAW+JPEG pair the photo under the cursor is in, if any.
    package var currentPairPartner: Photo? {
        list.currentIndex.flatMap(library.pairPartner(of:)).map(library.photo(at:))
    }

    /// How many tag deltas are unconfirmed.
    public var unsentTagDeltas: Int { tagging.pending.count }
    /// How many photo edits are unconfirmed.
    public var unsentPhotoEdits: Int { editing.pending.count }
    /// The photos with edits not yet confirmed.
    package var photosWithUnsentEdits: Set<Int> { editing.pending.photoIDs }

    /// Whether quitting now leaves work for the next start: downloads in progress, edits unsent (those
    /// waiting for a tag to be created included; the outboxes keep them all) or a purge under way.
    public var hasUnfinishedWork: Bool {
        unsentTagDeltas > 0 || unsentPhotoEdits > 0 || purge != nil || downloads.hasPendingWork
    }

    /// The photos a tag key acts on: the selection, or the photo under the cursor when nothing is selected.
    public var tagTargets: [Int] { taggingContext.targets }

    /// How many photos a tag key acts on, without listing them.
    public var tagTargetCount: Int {
        selection.isEmpty ? (list.currentIndex == nil ? 0 : 1) : selection.count
    }
}
