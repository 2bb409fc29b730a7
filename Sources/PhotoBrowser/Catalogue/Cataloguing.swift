import Foundation
import PhotoPickKit

/// The user's say over the walk that checks the library against the server.
public enum CatalogueEvent: Sendable {
    case loadingCancelled
    case loadingRetried
    /// `R`: check the library against the server now (or resume a stopped check).
    case refreshRequested
}

/// What the catalogue, the walk over the server's pages and the refresh timer report: only the
/// session's own effects send these.
package enum CatalogueReport: Sendable {
    /// The hourly refresh came due.
    case refreshDue
    /// What the catalogue held at the start; `notice` says when it was damaged and set aside. `at` is
    /// when it was read, for the age of the snapshot.
    case catalogueLoaded(Catalogue.Snapshot, notice: String?, at: Date)
    /// A page of the walk: new photos are added, changed ones updated in place.
    case photosArrived([Photo], nextCursor: String?)
    /// The walk saw every page; `deleted` are the photos it did not see, gone from the server. `at` is
    /// when: the library is "as of" then.
    case photosFinished(deleted: [Int], at: Date)
    case photosFailed(String)
    /// The server refused the listing's cursor: the walk starts over, skipping known photos.
    case photosCursorRefused
}

/// The catalogue and the walk: what is loaded, how old it is, when it is checked again. A room of its
/// own because it is the only feature that learns of photos; the others change photos it brought.
struct Cataloguing: Sendable {
    /// How far loading has got.
    private(set) var loading = LoadingStatus()
    /// When the catalogue is checked against the server.
    let refreshPolicy: RefreshPolicy

    /// What the parent passes: how a photo from the server is shown, with the edits not yet sent on top
    /// (nil when none waits, and it is shown as it came), and the photos such edits wait for.
    struct Context {
        let shown: ((Photo) -> Photo)?
        /// The photos `shown` may change: asked only when the catalogue is read.
        var edited: () -> Set<Int> = { [] }
        /// Puts the edits waiting for many photos at once (bulks) on a library just read.
        var overlay: (inout PhotoLibrary) -> Void = { _ in }
        /// The tags a photo with these stored tags is shown with, for one whose fields wait for nothing:
        /// no whole photo need be made to show its tags.
        var shownTags: ((Int, [Int]) -> [Int])?
        /// The photos whose fields (not tags) have edits waiting.
        var fieldsEdited: () -> Set<Int> = { [] }
    }

    init(refreshPolicy: RefreshPolicy) {
        self.refreshPolicy = refreshPolicy
    }

    mutating func reduce(_ event: CatalogueEvent, _ shared: inout Shared) -> [BrowserEffect] {
        switch event {
        case .loadingCancelled:
            guard loading.phase == .loading else { return [] }
            loading.phase = .cancelled
            return [.cancelLoading] + shared.post(.info, "Loading paused at \(shared.library.count.formatted()) photos.", remedy: .resumeLoading)
        case .loadingRetried:
            guard loading.canRetry else { return [] }
            loading.phase = .loading
            return [.walkLibrary]
        case .refreshRequested: return refresh(asked: true, &shared)
        }
    }

    mutating func receive(_ report: CatalogueReport, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        switch report {
        case .refreshDue: return refreshPolicy == .hourly ? refresh(asked: false, &shared) : []
        case .catalogueLoaded(let snapshot, let notice, let now): return loaded(snapshot, notice: notice, at: now, &shared, context)
        case .photosArrived(let photos, _):
            arrived(photos, &shared, context)
            return []
        case .photosFinished(let deleted, let now):
            loading.phase = .complete
            loading.asOf = now
            shared.news.walkFinished = true
            for id in deleted {
                if let index = shared.library.index(ofID: id) { shared.library.remove(at: index) }
            }
            shared.library.compact()
            guard refreshPolicy == .hourly else { return [.releaseFreedMemory] }
            return [.releaseFreedMemory, .scheduleRefresh(after: .seconds(RefreshPolicy.hour))]
        case .photosFailed(let reason):
            loading.phase = .failed(reason)
            let what = loading.isRefresh ? "Checking the library stopped" : "Loading stopped after \(shared.library.count.formatted()) photos"
            return shared.post(.error, "\(what): \(reason)", remedy: .resumeLoading)
        case .photosCursorRefused:
            loading.phase = .loading
            return [.walkLibrary] + shared.post(.info, "The listing position expired; walking again from the start, keeping the \(shared.library.count.formatted()) photos already here.")
        }
    }

    /// The catalogue's photos go on screen at once, then a walk checks them when the policy says (always
    /// when no walk ever completed, and when one was interrupted).
    private mutating func loaded(_ snapshot: Catalogue.Snapshot, notice: String?, at now: Date, _ shared: inout Shared, _ context: Context) -> [BrowserEffect] {
        loading.isCatalogueRead = true
        loading.asOf = snapshot.completedAt
        // Photos from a walk that never completed are a listing still under way, not a library "as of" a time.
        loading.isRefresh = snapshot.completedAt != nil && (snapshot.library.count > 0 || !snapshot.photos.isEmpty)
        if shared.library.count == 0 {
            // Nothing to compare with: the library as the catalogue keeps it, straight in, and the photos
            // edits wait for shown with them on top.
            shared.library = snapshot.library
            context.overlay(&shared.library)
            if let shown = context.shown {
                // In id order, which is the library's: each tag set grows at its end, not in its middle.
                let fieldsEdited = context.fieldsEdited()
                // Tags alone, the usual case: gathered per tag and set on all their photos at once, as
                // a photo at a time into the tags' sets took most of a start with 100,000 edits waiting.
                var adds: [Int: Bitset] = [:], removes: [Int: Bitset] = [:]
                for id in context.edited().sorted() {
                    guard let index = shared.library.index(ofID: id) else { continue }
                    if let shownTags = context.shownTags, !fieldsEdited.contains(id) {
                        let stored = shared.library.tagIDs(at: index), tags = shownTags(id, stored)
                        let (was, now) = (Set(stored), Set(tags))
                        for tag in now.subtracting(was) { adds[tag, default: Bitset()].insert(index) }
                        for tag in was.subtracting(now) { removes[tag, default: Bitset()].insert(index) }
                        continue
                    }
                    let photo = shared.library.photo(at: index), edited = shown(photo)
                    var retagged = photo
                    retagged.tagIDs = edited.tagIDs
                    // Most waiting edits are tags: the tag sets change, the columns stay.
                    if retagged == edited {
                        shared.library.setTagIDs(edited.tagIDs, at: index)
                    } else if edited != photo {
                        shared.library.replace(at: index, with: edited)
                    }
                }
                for (tag, photos) in adds { shared.library.setTag(tag, on: photos, true) }
                for (tag, photos) in removes { shared.library.setTag(tag, on: photos, false) }
            }
        } else {
            arrived((0..<snapshot.library.storedCount).map(snapshot.library.photo(at:)), &shared, context)
        }
        arrived(snapshot.photos, &shared, context)
        for id in snapshot.gone {
            if let index = shared.library.index(ofID: id) { shared.library.remove(at: index) }
        }
        for (photoID, score) in snapshot.focusScores {
            if let index = shared.library.index(ofID: photoID) { shared.library.setFocusScore(score, at: index) }
        }
        var effects: [BrowserEffect] = [.releaseFreedMemory] + (notice.map { shared.post(.warning, $0) } ?? [])
        let age = snapshot.completedAt.map { now.timeIntervalSince($0) }
        let due = switch refreshPolicy {
        case .onStart: true
        case .hourly: age.map { $0 >= RefreshPolicy.hour } ?? true
        case .manual: snapshot.completedAt == nil
        }
        if due || snapshot.walk != nil {
            loading.phase = .loading
            loading.isPaced = loading.isRefresh
            loading.walked = snapshot.walk?.seen ?? 0
            effects.append(.walkLibrary)
        } else {
            loading.phase = .complete
            if refreshPolicy == .hourly, let age { effects.append(.scheduleRefresh(after: .seconds(max(1, RefreshPolicy.hour - age)))) }
        }
        return effects
    }

    /// Starts a walk unless one is under way; `asked` when the user pressed `R`.
    private mutating func refresh(asked: Bool, _ shared: inout Shared) -> [BrowserEffect] {
        guard loading.isCatalogueRead else { return [] }
        if loading.isWalking {
            return asked ? shared.post(.info, "Already checking the library: \(loading.walked.formatted()) photos so far.") : []
        }
        loading.phase = .loading
        loading.isRefresh = loading.asOf != nil && shared.library.count > 0
        loading.isPaced = !asked && loading.isRefresh
        loading.walked = 0
        return [.walkLibrary] + (asked ? shared.post(.info, "Checking the library against the server, at the lowest priority.") : [])
    }

    /// A page of the walk: new photos join the library, changed ones are replaced in place (the list
    /// follows, the cursor and the selection staying on their photos).
    private mutating func arrived(_ photos: [Photo], _ shared: inout Shared, _ context: Context) {
        if loading.isWalking { loading.walked += photos.count }
        var fresh: [Photo] = []
        for photo in photos {
            let shown = context.shown?(photo) ?? photo
            guard let index = shared.library.index(ofID: photo.id) else {
                fresh.append(shown)
                continue
            }
            guard shared.library.photo(at: index) != shown else { continue }
            shared.library.replace(at: index, with: shown)
        }
        shared.library.append(fresh)
    }
}
