import Foundation
import PhotoPickKit

extension BrowserState {
    mutating func moveCursor(_ motion: CursorMotion) -> [BrowserEffect] {
        list.move(motion)
        extendVisualRange()
        return []
    }

    mutating func setSort(_ sort: SortKey) -> [BrowserEffect] {
        endVisualRange()
        list.setSort(sort, library: library, selection: selection)
        return post(.info, "Sorted by \(sort.label).")
    }

    mutating func changeFilter(_ change: (inout PhotoFilter) -> Void) -> [BrowserEffect] {
        endVisualRange()
        var filter = list.filter
        change(&filter)
        filter.tagContext = QueryTags(tags)
        list.setFilter(filter, library: library, selection: selection)
        return []
    }

    mutating func toggleStacking() -> [BrowserEffect] {
        endVisualRange()
        let gap = list.stackGap == nil ? burstGap : nil
        list.setStacking(gap: gap, library: library, selection: selection)
        guard gap != nil else { return post(.info, "Showing every photo; bursts are not stacked.") }
        let count = list.stacks.count
        return post(.info, count == 0
            ? "No bursts: no photos from one camera within \(burstGap.formatted()) s of each other."
            : "Bursts stacked: \(count.formatted()) stack\(count == 1 ? "" : "s"); marks and selection on a closed stack act on its first photo.")
    }

    mutating func toggleCurrentStack() -> [BrowserEffect] {
        guard list.stackGap != nil else { return post(.info, "Bursts are not stacked; turn stacking on first.") }
        guard list.count > 0, let stack = list.stack(at: list.cursor) else { return post(.info, "This photo is not part of a burst.") }
        endVisualRange()
        list.toggleStack(stack, library: library, selection: selection)
        return []
    }

    /// The tag list changed (loaded, a tag made, renamed or deleted): a query that names tags or marks
    /// is read again against it.
    mutating func tagsChanged() -> [BrowserEffect] {
        guard list.filter.query.readsTags || !list.filter.unknownTags().isEmpty else { return [] }
        var filter = list.filter
        filter.tagContext = QueryTags(tags)
        list.setFilter(filter, library: library, selection: selection)
        return []
    }

    /// The focus score of the photo at a library index, with its place in its burst when bursts are
    /// stacked; nil until one of its renditions is measured.
    public func focusFacts(at index: Int) -> FocusFacts? {
        guard let score = library.focusScore(at: index) else { return nil }
        guard list.stackGap != nil, let stack = list.stacks.stack(of: index) else { return FocusFacts(score: score) }
        let frames = list.stacks.members(of: stack)
        let scores = frames.compactMap { library.focusScore(at: $0) }
        return FocusFacts(score: score, rank: 1 + scores.filter { $0 > score }.count, frames: frames.count, measured: scores.count)
    }

    /// A rendition was measured: the score is kept, in the catalogue too when it changed, and a query
    /// that reads scores filters again.
    mutating func focusMeasured(photoID: Int, score: Double) -> [BrowserEffect] {
        guard let index = library.index(ofID: photoID), library.setFocusScore(score, at: index) else { return [] }
        if list.filter.query.readsFocus { list.setFilter(list.filter, library: library, selection: selection) }
        return [.saveFocusScore(photoID: photoID, score: score)]
    }

    // MARK: - Loading

    /// The catalogue's photos and tags go on screen at once, then a walk checks them when the policy
    /// says (always when no walk ever completed, and when one was interrupted).
    mutating func catalogueLoaded(_ snapshot: Catalogue.Snapshot, notice: String?, at now: Date) -> [BrowserEffect] {
        loading.isCatalogueRead = true
        loading.asOf = snapshot.completedAt
        // Photos from a walk that never completed are a listing still under way, not a library "as of" a time.
        loading.isRefresh = snapshot.completedAt != nil && !snapshot.photos.isEmpty
        if !snapshot.tags.isEmpty, !tags.isLoaded { tags.replaceAll(snapshot.tags) }
        if library.count == 0 {
            insert(snapshot.photos)  // nothing to compare with: straight in
        } else {
            _ = photosArrived(snapshot.photos)
        }
        for (photoID, score) in snapshot.focusScores {
            if let index = library.index(ofID: photoID) { library.setFocusScore(score, at: index) }
        }
        if !snapshot.focusScores.isEmpty, list.filter.query.readsFocus { list.setFilter(list.filter, library: library, selection: selection) }
        var effects = notice.map { post(.warning, $0) } ?? []
        let age = snapshot.completedAt.map { now.timeIntervalSince($0) }
        let due = switch refreshPolicy {
        case .onStart: true
        case .hourly: age.map { $0 >= RefreshPolicy.hour } ?? true
        case .manual: snapshot.completedAt == nil
        }
        if due || snapshot.walk != nil {
            loading.phase = .loading
            loading.walked = snapshot.walk?.seen ?? 0
            effects.append(.walkLibrary)
        } else {
            loading.phase = .complete
            if refreshPolicy == .hourly, let age { effects.append(.scheduleRefresh(after: .seconds(max(1, RefreshPolicy.hour - age)))) }
        }
        return effects
    }

    /// Starts a walk unless one is under way; `asked` when the user pressed `R`.
    mutating func refresh(asked: Bool) -> [BrowserEffect] {
        guard loading.isCatalogueRead else { return [] }
        if loading.isWalking {
            return asked ? post(.info, "Already checking the library: \(loading.walked.formatted()) photos so far.") : []
        }
        loading.phase = .loading
        loading.isRefresh = loading.asOf != nil && library.count > 0
        loading.walked = 0
        return [.walkLibrary] + (asked ? post(.info, "Checking the library against the server, at the lowest priority.") : [])
    }

    /// A page of the walk: new photos join the list where they belong, changed ones are updated in
    /// place; the cursor and the selection stay on their photos.
    mutating func photosArrived(_ photos: [Photo]) -> [BrowserEffect] {
        if loading.isWalking { loading.walked += photos.count }
        var fresh: [Photo] = []
        var changed: [Int] = []
        for var photo in photos {
            if let confirmed = confirmedTags[photo.id] { photo.tagIDs = confirmed }
            if let written = confirmedEdits[photo.id] {
                for field in PhotoField.allCases { field.set(field.value(of: written), on: &photo) }
            }
            guard let index = library.index(ofID: photo.id) else {
                fresh.append(photo)
                continue
            }
            var shown = pendingEdits.applied(to: photo)
            // The server's copy predates edits still in the outbox; show the photo as it will be.
            if let deltas = pendingDeltas[photo.id] { shown.tagIDs = deltas.reduce(photo.tagIDs) { $1.applied(to: $0) } }
            let old = library[index]
            guard library.photo(at: index) != shown else { continue }
            tags.recount(from: old.tagIDs, to: shown.tagIDs)
            library.replace(at: index, with: shown)
            changed.append(index)
        }
        list.update(removing: [], repositioning: changed, library: library, selection: selection)
        let added = insert(fresh)
        if !added.isEmpty || !changed.isEmpty { reanchorVisualRange() }
        return []
    }

    /// Adds photos not loaded yet, with the outbox's edits on top, and lists them.
    @discardableResult
    private mutating func insert(_ photos: [Photo]) -> Range<Int> {
        let added = library.append(pendingEdits.count == 0 ? photos : photos.map(pendingEdits.applied))
        for index in added {
            let photo = library[index]
            if let deltas = pendingDeltas[photo.id] {
                library.setTagIDs(deltas.reduce(photo.tagIDs) { $1.applied(to: $0) }, at: index)
            }
            tags.recount(from: [], to: library[index].tagIDs)
        }
        list.insert(added, library: library, selection: selection)
        return added
    }

    /// The walk saw every page: what it did not see was deleted on the server, and goes.
    mutating func photosFinished(deleted: [Int], at now: Date) -> [BrowserEffect] {
        loading.phase = .complete
        confirmedTags = [:]
        confirmedEdits = [:]
        loading.asOf = now
        removePhotos(deleted)
        guard refreshPolicy == .hourly else { return [] }
        return [.scheduleRefresh(after: .seconds(RefreshPolicy.hour))]
    }

    /// Takes photos deleted on the server out of the library, the selection and the list.
    mutating func removePhotos(_ ids: [Int]) {
        var gone = Set<Int32>()
        for id in ids {
            guard let index = library.index(ofID: id) else { continue }
            tags.recount(from: library[index].tagIDs, to: [])
            selection.set(index, false, bytes: library[index].bytes)
            library.remove(at: index)
            gone.insert(Int32(index))
        }
        list.update(removing: gone, repositioning: [], library: library, selection: selection)
        if !gone.isEmpty { reanchorVisualRange() }
    }

    mutating func photosFailed(_ reason: String) -> [BrowserEffect] {
        loading.phase = .failed(reason)
        let what = loading.isRefresh ? "Checking the library stopped" : "Loading stopped after \(library.count.formatted()) photos"
        return post(.error, "\(what): \(reason)", remedy: .resumeLoading)
    }

    mutating func restartLoading() -> [BrowserEffect] {
        loading.phase = .loading
        return [.walkLibrary] + post(.info, "The listing position expired; walking again from the start, keeping the \(library.count.formatted()) photos already here.")
    }

    mutating func cancelLoading() -> [BrowserEffect] {
        guard loading.phase == .loading else { return [] }
        loading.phase = .cancelled
        return [.cancelLoading] + post(.info, "Loading paused at \(library.count.formatted()) photos.", remedy: .resumeLoading)
    }

    mutating func retryLoading() -> [BrowserEffect] {
        guard loading.canRetry else { return [] }
        loading.phase = .loading
        return [.walkLibrary]
    }
}
