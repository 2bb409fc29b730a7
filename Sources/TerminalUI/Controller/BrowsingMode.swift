import PhotoBrowser
import PhotoPickSettings

/// No overlay: the keys move through the list, the grid or the full-screen preview, and act on the
/// photos.
enum BrowsingMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        if context.ui.culling, cull(key, &context) { return }
        guard let action = context.action(key) else { return }
        if let travel = CursorMotions.travel(of: action) { context.ui.travel = travel }
        if context.ui.fullPreview {
            fullPreview(action, &context)
        } else if let grid = context.layout.grid, let motion = CursorMotions.grid(action, grid: grid, list: context.state.list) {
            if let motion { context.send(.browsing(.cursorMoved(motion))) }
        } else if let motion = CursorMotions.list(action) {
            context.send(.browsing(.cursorMoved(motion)))
        } else {
            switch action {
            case .left, .right: break  // the list has one column
            case .preview: if context.state.currentPhoto != nil { context.ui.fullPreview = true }
            case .grid: context.ui.mode = context.ui.mode == .list ? .grid : .list
            default: command(action, &context)
            }
        }
    }

    /// One photo at a time: every movement steps to the next or previous photo.
    private static func fullPreview(_ action: Action, _ context: inout InputContext) {
        let step: CursorMotion? = switch action {
        case .right: .down
        case .left: .up
        default: CursorMotions.list(action)
        }
        if let step { return context.send(.browsing(.cursorMoved(step))) }
        switch action {
        case .cancel where context.state.visualPositions != nil: context.send(.selection(.visualRangeCancelled))
        case .preview, .cancel: context.ui.fullPreview = false
        case .zoom: LoupeMode.open(&context)
        case .grid:
            context.ui.fullPreview = false
            context.ui.mode = context.ui.mode == .list ? .grid : .list
        default: command(action, &context)
        }
    }

    /// Cull mode's own keys (ratings, labels) and its way out; false for keys it leaves to browsing.
    private static func cull(_ key: Key, _ context: inout InputContext) -> Bool {
        if let markKey = context.keymap.action(for: key, in: .cull)?.markKey {
            context.send(markKey.event)
            advance(&context)
            return true
        }
        switch context.action(key) {
        // `c` always leaves culling; Esc only when no visual selection is open (it closes that first).
        case .cullMode?,
             .cancel? where context.state.visualPositions == nil:
            context.ui.culling = false
            return true
        default:
            return false
        }
    }

    /// Why compare cannot open.
    struct NothingToCompare: Error {
        let text: String
    }

    /// What `C` compares: two to four selected photos, else the burst under the cursor.
    static func compareSet(_ state: BrowserState) -> Result<UIState.Compare, NothingToCompare> {
        // Only what is listed counts: a selected photo the filter hides or a closed stack folds is not shown.
        let listed = state.selection.isEmpty ? [] : state.list.libraryIndices.filter(state.selection.contains)
        if listed.count > UIState.Compare.maximumShown {
            return .failure(NothingToCompare(text: "Compare shows 2 to 4 photos; \(listed.count) are selected."))
        }
        if listed.count >= 2 {
            let ids = listed.map { state.library.id(at: $0) }
            let active = state.list.currentIndex.flatMap { current in ids.firstIndex(of: state.library.id(at: current)) } ?? 0
            return .success(UIState.Compare(photoIDs: ids, active: active))
        }
        guard let current = state.list.currentIndex, let frames = state.burst(containing: current) else {
            return .failure(NothingToCompare(text: "Select 2 to 4 photos, or stand on a burst, to compare them."))
        }
        return .success(UIState.Compare(photoIDs: frames.map { state.library.id(at: $0) }, active: frames.firstIndex(of: current) ?? 0))
    }

    /// After a mark in cull mode: on to the next photo, in the list, the grid and full screen alike.
    private static func advance(_ context: inout InputContext) {
        guard context.ui.culling, context.state.list.count > 0 else { return }
        context.send(.browsing(.cursorMoved(.position(context.state.list.cursor + 1))))
    }

    /// Actions that work the same in the list, the grid and the full-screen preview.
    private static func command(_ action: Action, _ context: inout InputContext) {
        let state = context.state
        switch action {
        case .down, .up, .left, .right, .halfPageDown, .halfPageUp, .pageDown, .pageUp, .top, .bottom, .preview, .grid: break
        case .zoom: break  // in full screen and compare
        case .toggleSelection: context.send(.selection(.selectionToggledAndAdvanced))
        case .visualRange: context.send(.selection(.visualRangeToggled))
        case .selectAll: context.send(.selection(.allMatchingSelected))
        case .invert: context.send(.selection(.selectionInverted))
        case .cancel:
            if state.visualPositions != nil {
                context.send(.selection(.visualRangeCancelled))
            } else if !state.selection.isEmpty {
                context.send(.selection(.selectionCleared))
            } else if state.message != nil {
                context.send(.status(.messageDismissed))
            } else if !state.list.filter.isEmpty {
                context.send(.browsing(.filtersCleared))
            }
        case .filter: context.ui.filterField = TextField(state.list.filter.text)
        case .tagFilter: context.ui.overlay = .picker(UIState.Picker(kind: .tagFilter))
        case .cycleSort: context.send(.browsing(.sortCycled))
        case .tag1, .tag2, .tag3, .tag4, .tag5, .tag6, .tag7, .tag8, .tag9: context.send(.tags(.tagNumberPressed(action.tagNumber ?? 1)))
        case .tagPicker: context.ui.overlay = .picker(UIState.Picker(kind: .tags))
        case .manageTags: context.ui.overlay = .picker(UIState.Picker(kind: .manageTags))
        case .undo: context.send(.undoRequested)
        case .edit: EditFormMode.open(&context)
        case .bulkEdit:
            let targets = state.selection.isEmpty
                ? state.list.currentIndex.map { [$0] } ?? []
                : state.list.libraryIndices.filter(state.selection.contains)
            if let reason = state.account.disabledReason(.editing) {
                context.send(.status(.noticePosted(.warning, reason)))
            } else if !targets.isEmpty {
                context.outcome.bulkEdit = targets.map { state.library.id(at: $0) }
            }
        case .purgeRejects:
            let rejected = state.rejectedInList
            if let problem = state.purgeProblem(rejected) {
                let why = rejected.isEmpty ? "No rejected photos in the list: mark them with \(context.keymap.hint(.reject)) first." : problem
                context.send(.status(.noticePosted(.info, why)))
            } else {
                context.ui.overlay = .prompt(UIState.Prompt(.purge(photoIDs: rejected, bytes: state.bytes(ofPhotos: rejected))))
            }
        case .copyID:
            if let photo = state.currentPhoto { context.outcome.clipboard = String(photo.id) }
        case .copyMenu:
            if state.currentPhoto != nil { context.ui.overlay = .picker(UIState.Picker(kind: .copy)) }
        case .download: context.send(.downloads(.downloadRequested))
        case .chooseVariant:
            var picker = UIState.Picker(kind: .variant)
            picker.cursor = picker.entries(in: state).firstIndex { $0.choice == .variant(state.downloadVariant) } ?? 0
            context.ui.overlay = .picker(picker)
        case .queuePanel: context.ui.overlay = .queue(cursor: 0)
        case .details: if state.currentPhoto != nil { context.ui.overlay = .details(scroll: 0) }
        case .help: context.ui.overlay = .help(scroll: 0)
        case .quit:
            if state.hasUnfinishedWork { context.ui.overlay = .confirmQuit } else { context.outcome.quit = true }
        case .reload: context.send(state.loading.canRetry ? .catalogue(.loadingRetried) : .catalogue(.refreshRequested))
        case .pick, .reject, .unflag:
            if let markKey = action.markKey { context.send(markKey.event) }
            advance(&context)
        case .cullMode: context.ui.culling = true
        case .stackBursts: context.send(.browsing(.stackingToggled))
        case .openStack: context.send(.browsing(.stackOpened))
        case .savedSearches: context.ui.overlay = .picker(UIState.Picker(kind: .savedSearches))
        case .compare:
            switch compareSet(state) {
            case .success(let compare): context.ui.compare = compare
            case .failure(let reason): context.send(.status(.noticePosted(.info, reason.text)))
            }
        case .pickSharpest:
            let plan = state.sharpestFrames()
            if plan.winners.count > plan.alreadyPicked {
                context.ui.overlay = .prompt(UIState.Prompt(.pickSharpest(plan)))
            } else {
                // Nothing to ask about: the state says why (no bursts, nothing measured, all picked).
                context.send(.focus(.sharpestFramesPicked))
            }
        case .histogram: context.ui.histogram.toggle()
        case .clipping: context.ui.clipping.toggle()
        case .stats: context.ui.openStats(state)
        case .queuePause, .queueRetry, .queueCancel, .concurrencyUp, .concurrencyDown, .clearFinished: break
        case .rate0, .rate1, .rate2, .rate3, .rate4, .rate5, .labelRed, .labelYellow, .labelGreen, .labelBlue, .labelPurple: break
        }
    }
}
