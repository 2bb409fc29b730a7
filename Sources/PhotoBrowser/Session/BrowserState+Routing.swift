import Foundation
import PhotoPickKit

/// The parent's one job: route each event to its room with what that room may read, then pass the
/// room's news to the others (as TCA's `Scope` and isowords' parents do).
extension BrowserState {
    /// Applies what the user did at `now` and returns the work it asks for.
    package mutating func apply(_ event: BrowserEvent, at now: Date) -> [BrowserEffect] {
        var effects = route(event, at: now)
        effects += settle()
        return effects
    }

    /// Applies what the world reported at `now` and returns the work it asks for.
    package mutating func apply(_ report: BrowserReport, at now: Date) -> [BrowserEffect] {
        var effects = route(report, at: now)
        effects += settle()
        return effects
    }

    /// Either.
    package mutating func apply(_ input: BrowserInput, at now: Date) -> [BrowserEffect] {
        switch input {
        case .event(let event): apply(event, at: now)
        case .report(let report): apply(report, at: now)
        }
    }

    private mutating func route(_ event: BrowserEvent, at now: Date) -> [BrowserEffect] {
        switch event {
        case .browsing(let event):
            return browsing.reduce(event, &shared, Browsing.Context(selection: selecting.selection, tags: tagging.tags))
        case .selection(let event):
            let effects = selecting.reduce(event, &shared, list: browsing.list)
            guard case .selectionToggledAndAdvanced = event else { return effects }
            return effects + route(.browsing(.cursorMoved(.down)), at: now)
        case .tags(let event):
            return tagging.reduce(event, &shared, taggingContext)
        case .edits(let event):
            let event = reachingPartners(event, shared.library)
            return editing.reduce(event, &shared, Editing.Context(account: statusBar.account, isWalking: cataloguing.loading.isWalking))
        case .purge(let event):
            return purging.reduce(event, &shared, Purging.Context(account: statusBar.account, tags: tagging.tags))
        case .downloads(let event):
            let context = Downloading.Context(
                selection: selecting.selection, cursorIndex: browsing.list.currentIndex, account: statusBar.account,
                partner: { [list = browsing.list, library = shared.library] in list.closedPartner(of: $0, in: library) }
            )
            return downloading.reduce(event, &shared, context)
        case .catalogue(let event):
            return cataloguing.reduce(event, &shared)
        case .focus(let event):
            let context = Focusing.Context(list: browsing.list, selection: selecting.selection, burstGap: browsing.burstGap, tags: tagging.tags)
            return focusing.reduce(event, &shared, context)
        case .status(let event):
            return statusBar.reduce(event, &shared)
        case .undoRequested:
            switch shared.ledger.takeLastStep() {
            case nil: return shared.post(.info, "Nothing to undo.")
            case .tags(let edits)?: return tagging.undo(edits, &shared, taggingContext)
            case .fields(let done)?:
                return editing.undo(done, &shared, Editing.Context(account: statusBar.account, isWalking: cataloguing.loading.isWalking))
            }
        }
    }

    private mutating func route(_ report: BrowserReport, at now: Date) -> [BrowserEffect] {
        switch report {
        case .browsing(let report):
            return browsing.receive(report, &shared, Browsing.Context(selection: selecting.selection, tags: tagging.tags))
        case .tags(let report):
            return tagging.receive(report, &shared, taggingContext)
        case .edits(let report):
            return editing.receive(report, &shared, Editing.Context(account: statusBar.account, isWalking: cataloguing.loading.isWalking))
        case .purge(let report):
            return purging.receive(report, &shared)
        case .downloads(let report):
            let context = Downloading.Context(selection: selecting.selection, cursorIndex: browsing.list.currentIndex, account: statusBar.account)
            return downloading.receive(report, &shared, context)
        case .catalogue(let report):
            if case .catalogueLoaded(let snapshot, _, _) = report { tagging.restore(snapshot.tags) }
            return cataloguing.receive(report, &shared, Cataloguing.Context(
                shown: shownFromServer, edited: { [tagging, editing] in Self.edited(tagging, editing) }, overlay: { [tagging] in tagging.overlayBulks(on: &$0) },
                shownTags: { [tagging] in tagging.shownTags(of: $0, $1) },
                fieldsEdited: { [editing] in Set(editing.pending.photoIDs).union(editing.confirmed.keys) }
            ))
        case .focus(let report):
            return focusing.receive(report, &shared)
        case .status(let report):
            return statusBar.receive(report, &shared)
        case .sessionStarted(let outbox, let bulks, let nextSequence, let restored, let nextDownloadID):
            shared.ledger.start(at: nextSequence)
            tagging.restore(outbox, bulks: bulks, below: nextSequence)
            return downloading.restore(restored, nextID: nextDownloadID, &shared)
        }
    }

    /// Passes the news of the event just handled to the rooms that follow it, in the order the old single
    /// reducer did the same work: photos into the list, the selection after them, the tag list into the
    /// query, a mark decided elsewhere onto its photos.
    private mutating func settle() -> [BrowserEffect] {
        var effects: [BrowserEffect] = []
        var news = shared.news
        shared.news = News()
        if let marking = news.marking {
            effects += tagging.setMark(marking.mark, on: taggingContext.expand(marking.photos), &shared, taggingContext)
            effects += shared.post(.info, marking.line)
            news.tagsChanged = news.tagsChanged || shared.news.tagsChanged
            shared.news = News()
        }
        if news.walkFinished {
            tagging.confirmed = [:]
            editing.confirmed = [:]
        }
        if !news.purged.isEmpty {
            tagging.forget(news.purged)
            editing.forget(news.purged)
        }
        if news.listReshaped { selecting.endVisualRange() }
        let changes = shared.library.takeChanges()
        if changes.movesPhotos || changes.isCompacted {
            selecting.forget(changes.removed, library: shared.library)
            browsing.follow(changes, library: shared.library, selection: selecting.selection)
            selecting.reanchor(browsing.list, library: shared.library)
        }
        if news.cursorMoved { selecting.followCursor(browsing.list, library: shared.library) }
        if changes.isFocusChanged { browsing.focusChanged(library: shared.library, selection: selecting.selection) }
        if news.tagsChanged { browsing.tagsChanged(tagging.tags, library: shared.library, selection: selecting.selection) }
        return effects
    }

    /// What the tags' room may read: what the user points at, what the key may do, whether a walk is on.
    var taggingContext: Tagging.Context {
        Tagging.Context(
            selection: selecting.selection, cursorIndex: browsing.list.currentIndex, account: statusBar.account,
            isWalking: cataloguing.loading.isWalking, partner: { [list = browsing.list, library = shared.library] in list.closedPartner(of: $0, in: library) }
        )
    }

    /// The photos that unsent edits or this walk's writes show differently from the server's copy.
    private static func edited(_ tagging: Tagging, _ editing: Editing) -> Set<Int> {
        Set(tagging.pending.photoIDs).union(tagging.confirmed.keys).union(editing.pending.photoIDs).union(editing.confirmed.keys)
    }

    /// How a photo from the server (a page, the catalogue) is shown: with what this walk's writes
    /// confirmed and the edits not yet sent on top; nil while nothing waits, so it shows as it came.
    private var shownFromServer: ((Photo) -> Photo)? {
        let tagging = tagging, editing = editing
        guard tagging.pending.count > 0 || !tagging.confirmed.isEmpty || editing.pending.count > 0 || !editing.confirmed.isEmpty else {
            return nil
        }
        return { editing.shown(tagging.shown($0)) }
    }

    /// A browser's edit with the same change of each closed pair's other file, found in the list. Worked
    /// out here and not by a closure in the context: one holding the library while the edit changes it
    /// would make that change copy the whole library.
    private func reachingPartners(_ event: EditEvent, _ library: PhotoLibrary) -> EditEvent {
        guard case .photosEdited(let changes, let summary, false) = event else { return event }
        let list = browsing.list
        return .photosEdited(Editing.reachingPartners(changes, library) { list.closedPartner(of: $0, in: library) }, summary: summary, exact: true)
    }
}
