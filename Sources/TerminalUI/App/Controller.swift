import PhotoBrowser
import PhotoPickKit

/// Turns keys and clicks into browser events and UI changes. It holds no terminal and no session, so
/// every key can be tested by feeding it a state.
public struct Controller: Sendable {
    /// What handling an input asks of the app.
    public struct Outcome: Sendable {
        public var events: [BrowserEvent] = []
        public var quit = false
        /// Ctrl-Z: give the terminal back to the shell until `fg`.
        public var suspend = false
    }

    public private(set) var ui = UIState()
    public let keymap: Keymap
    /// Lines on the help screen, which depend only on the key map: the bound of its scroll.
    private let helpLineCount: Int
    private var pageRows: Int?

    public init(keymap: Keymap = .standard) {
        self.keymap = keymap
        helpLineCount = Screen.helpLines(for: keymap).count
    }

    // MARK: Input

    public mutating func handle(_ input: InputEvent, state: BrowserState, layout: ScreenLayout) -> Outcome {
        switch input {
        case .mouse(let mouse): return handleMouse(mouse, state: state, layout: layout)
        case .key(.control("z")):
            return Outcome(suspend: true)
        case .key(let key) where layout.tooSmall:
            // Only the request for a bigger window shows, so only quitting means anything, and there is no
            // room to ask: unfinished work resumes next time anyway.
            return Outcome(quit: isQuitKey(key))
        case .key(.control("c")):
            // Ctrl-C always quits, as in any terminal program; it asks first like `q` when work is pending.
            if ui.overlay == .confirmQuit || !state.hasUnfinishedWork { return Outcome(quit: true) }
            ui.filterField = nil
            ui.overlay = .confirmQuit
            return Outcome()
        case .key(let key):
            if ui.filterField != nil { return handleFilterTyping(key, state: state) }
            switch ui.overlay {
            case nil: return handleBrowsing(key, state: state, layout: layout)
            case .help(let scroll):
                ui.overlay = scrolled(key, scroll).map { bounded(.help(scroll: $0), state: state) }
            case .details(let scroll):
                if key == .escape || key == .enter || keymap.action(for: key, in: .browse) == .quit {
                    ui.overlay = nil
                } else {
                    ui.overlay = bounded(.details(scroll: scrolled(key, scroll) ?? scroll), state: state)
                }
            case .queue(let cursor): return handleQueue(key, cursor: cursor, state: state)
            case .picker(let picker): return handlePicker(key, picker, state: state)
            case .prompt(let prompt): return handlePrompt(key, prompt)
            case .confirmQuit:
                switch key {
                case .character("y"), .character("Y"), .enter: return Outcome(quit: true)
                case .character("n"), .character("N"), .escape: ui.overlay = nil
                default: if keymap.action(for: key, in: .browse) == .quit { return Outcome(quit: true) }
                }
            }
            return Outcome()
        }
    }

    /// The new scroll offset for a key in a scrolling panel, or `nil` when the key closes it.
    private func scrolled(_ key: Key, _ scroll: Int) -> Int? {
        switch keymap.action(for: key, in: .browse) {
        case .down: scroll + 1
        case .up: max(0, scroll - 1)
        case .halfPageDown, .pageDown: scroll + 10
        case .halfPageUp, .pageUp: max(0, scroll - 10)
        case .top: 0
        default: nil
        }
    }

    /// The help or details panel with its scroll kept within its lines.
    private func bounded(_ overlay: UIState.Overlay, state: BrowserState) -> UIState.Overlay {
        switch overlay {
        case .help(let scroll): return .help(scroll: min(max(0, scroll), helpLineCount))
        case .details(let scroll):
            let rows = state.currentPhoto.map { MetadataPresenter().rows(for: $0, tags: state.tags).count } ?? 0
            return .details(scroll: min(max(0, scroll), rows))
        default: return overlay
        }
    }

    /// Ctrl-C, or a key bound to quit.
    public func isQuitKey(_ key: Key) -> Bool {
        key == .control("c") || keymap.action(for: key, in: .browse) == .quit
    }

    private mutating func handleBrowsing(_ key: Key, state: BrowserState, layout: ScreenLayout) -> Outcome {
        guard let action = keymap.action(for: key, in: .browse) else { return Outcome() }
        var outcome = Outcome()
        func send(_ event: BrowserEvent) { outcome.events.append(event) }
        if let travel = Self.travel(of: action) { ui.travel = travel }
        if ui.fullPreview {
            // One photo at a time: every movement steps to the next or previous photo.
            let step: CursorMotion? = switch action {
            case .right: .down
            case .left: .up
            default: Self.listMotion(action)
            }
            if let step {
                send(.cursorMoved(step))
                return outcome
            }
            switch action {
            case .cancel where state.visualRange != nil: send(.visualRangeCancelled)
            case .preview, .cancel: ui.fullPreview = false
            case .grid:
                ui.fullPreview = false
                ui.mode = ui.mode == .list ? .grid : .list
            default: return handleCommand(action, state: state)
            }
            return outcome
        }
        if let grid = layout.grid, let motion = Self.gridMotion(action, grid: grid, list: state.list) {
            if let motion { send(.cursorMoved(motion)) }
            return outcome
        }
        if let motion = Self.listMotion(action) {
            send(.cursorMoved(motion))
            return outcome
        }
        switch action {
        case .left, .right: break  // the list has one column
        case .preview: if state.currentPhoto != nil { ui.fullPreview = true }
        case .grid: ui.mode = ui.mode == .list ? .grid : .list
        default: return handleCommand(action, state: state)
        }
        return outcome
    }

    /// How an action moves the cursor through the list, one photo per row.
    private static func listMotion(_ action: Action) -> CursorMotion? {
        switch action {
        case .down: .down
        case .up: .up
        case .halfPageDown: .halfPageDown
        case .halfPageUp: .halfPageUp
        case .pageDown: .pageDown
        case .pageUp: .pageUp
        case .top: .top
        case .bottom: .bottom
        default: nil
        }
    }

    /// Which way an action moves the cursor through the photos, for fetching previews ahead.
    private static func travel(of action: Action) -> Int? {
        switch action {
        case .down, .right, .halfPageDown, .pageDown, .bottom, .toggleSelection: 1
        case .up, .left, .halfPageUp, .pageUp, .top: -1
        default: nil
        }
    }

    /// Movement in the grid: up and down go a row of tiles, left and right one photo, half a page is
    /// half the rows; the column is kept. `.some(nil)` when the move goes nowhere, nil for other actions.
    private static func gridMotion(_ action: Action, grid: ScreenLayout.Grid, list: PhotoList) -> CursorMotion?? {
        guard list.count > 0 else { return nil }
        let cursor = list.cursor, columns = grid.columns
        let lastRow = (list.count - 1) / columns
        func rows(_ delta: Int) -> CursorMotion? {
            let row = min(max(0, cursor / columns + delta), lastRow)
            let target = min(row * columns + cursor % columns, list.count - 1)
            return target == cursor ? nil : .position(target)
        }
        switch action {
        case .down: return .some(rows(1))
        case .up: return .some(rows(-1))
        case .halfPageDown: return .some(rows(max(1, grid.rows / 2)))
        case .halfPageUp: return .some(rows(-max(1, grid.rows / 2)))
        case .pageDown: return .some(rows(grid.rows))
        case .pageUp: return .some(rows(-grid.rows))
        case .left: return .some(cursor > 0 ? .up : nil)
        case .right: return .some(cursor < list.count - 1 ? .down : nil)
        default: return nil
        }
    }

    /// Actions that work the same in the list, the grid and the full-screen preview.
    private mutating func handleCommand(_ action: Action, state: BrowserState) -> Outcome {
        var outcome = Outcome()
        func send(_ event: BrowserEvent) { outcome.events.append(event) }
        switch action {
        case .down, .up, .left, .right, .halfPageDown, .halfPageUp, .pageDown, .pageUp, .top, .bottom, .preview, .grid: break
        case .toggleSelection: send(.selectionToggledAndAdvanced)
        case .visualRange: send(.visualRangeToggled)
        case .selectAll: send(.allMatchingSelected)
        case .invert: send(.selectionInverted)
        case .cancel:
            if state.visualRange != nil {
                send(.visualRangeCancelled)
            } else if !state.selection.isEmpty {
                send(.selectionCleared)
            } else if state.messages.current != nil {
                send(.messageDismissed)
            } else if !state.list.filter.isEmpty {
                send(.filtersCleared)
            }
        case .filter: ui.filterField = TextField(state.list.filter.text)
        case .tagFilter: ui.overlay = .picker(UIState.Picker(kind: .tagFilter))
        case .cycleSort: send(.sortCycled)
        case .tag1, .tag2, .tag3, .tag4, .tag5, .tag6, .tag7, .tag8, .tag9:
            send(.tagNumberPressed(action.tagNumber ?? 1))
        case .tagPicker: ui.overlay = .picker(UIState.Picker(kind: .tags))
        case .manageTags: ui.overlay = .picker(UIState.Picker(kind: .manageTags))
        case .undo: send(.undoRequested)
        case .download: send(.downloadRequested)
        case .chooseVariant:
            var picker = UIState.Picker(kind: .variant)
            picker.cursor = picker.entries(in: state).firstIndex { $0.choice == .variant(state.downloadVariant) } ?? 0
            ui.overlay = .picker(picker)
        case .queuePanel: ui.overlay = .queue(cursor: 0)
        case .details: if state.currentPhoto != nil { ui.overlay = .details(scroll: 0) }
        case .help: ui.overlay = .help(scroll: 0)
        case .quit:
            if state.hasUnfinishedWork { ui.overlay = .confirmQuit } else { outcome.quit = true }
        case .reload: if state.loading.canRetry { send(.loadingRetried) }
        case .queuePause, .queueRetry, .queueCancel, .concurrencyUp, .concurrencyDown, .clearFinished: break
        }
        return outcome
    }

    private mutating func handleFilterTyping(_ key: Key, state: BrowserState) -> Outcome {
        guard var field = ui.filterField else { return Outcome() }
        switch key {
        case .enter:
            ui.filterField = nil
            return Outcome()
        case .escape:
            ui.filterField = nil
            return Outcome(events: [.filterTextChanged("")])
        case .up: return Outcome(events: [.cursorMoved(.up)])
        case .down: return Outcome(events: [.cursorMoved(.down)])
        default:
            guard field.edit(key) else { return Outcome() }
            ui.filterField = field
            return Outcome(events: [.filterTextChanged(field.text)])
        }
    }

    private mutating func handleQueue(_ key: Key, cursor: Int, state: BrowserState) -> Outcome {
        let items = state.downloads.items
        // Items may have gone (cleared, cancelled) since the panel last moved.
        let cursor = min(cursor, max(0, items.count - 1))
        let item = items.indices.contains(cursor) ? items[cursor] : nil
        var outcome = Outcome()
        if key == .escape || keymap.action(for: key, in: .browse) == .queuePanel || keymap.action(for: key, in: .browse) == .quit {
            ui.overlay = nil
            return outcome
        }
        if let action = keymap.action(for: key, in: .queue) {
            switch action {
            case .queuePause:
                if let item {
                    outcome.events.append(item.status == .paused ? .downloadResumed(id: item.id) : .downloadPaused(id: item.id))
                }
            case .queueRetry:
                // The failed item under the cursor, or else every failed item.
                if let item, item.status.failure != nil {
                    outcome.events.append(.downloadRetried(id: item.id))
                } else {
                    outcome.events.append(.failedDownloadsRetried)
                }
            case .queueCancel: if let item { outcome.events.append(.downloadCancelled(id: item.id)) }
            case .concurrencyUp: outcome.events.append(.concurrencyChanged(by: 1))
            case .concurrencyDown: outcome.events.append(.concurrencyChanged(by: -1))
            case .clearFinished: outcome.events.append(.finishedDownloadsCleared)
            default: break
            }
            return outcome
        }
        let last = max(0, items.count - 1)
        switch keymap.action(for: key, in: .browse) {
        case .down: ui.overlay = .queue(cursor: min(last, cursor + 1))
        case .up: ui.overlay = .queue(cursor: max(0, cursor - 1))
        case .top: ui.overlay = .queue(cursor: 0)
        case .bottom: ui.overlay = .queue(cursor: last)
        default: break
        }
        return outcome
    }

    private mutating func handlePicker(_ key: Key, _ picker: UIState.Picker, state: BrowserState) -> Outcome {
        var picker = picker
        let entries = picker.entries(in: state)
        // Entries may have gone (a tag deleted, the query narrowed) since the cursor last moved.
        picker.cursor = min(picker.cursor, max(0, entries.count - 1))
        let entry = entries.indices.contains(picker.cursor) ? entries[picker.cursor] : nil
        var outcome = Outcome()
        switch key {
        case .escape:
            ui.overlay = nil
            return outcome
        case .down, .control("n"), .tab:
            picker.cursor = min(max(0, entries.count - 1), picker.cursor + 1)
        case .up, .control("p"), .backTab:
            picker.cursor = max(0, picker.cursor - 1)
        case .enter, .character(" ") where picker.kind == .tagFilter:
            if let entry { outcome.events += choose(entry, in: picker.kind, state: state) }
            if picker.kind == .variant { ui.overlay = nil; return outcome }
        default:
            if picker.takesQuery {
                if picker.query.edit(key) { picker.cursor = 0 }
            } else {
                switch (picker.kind, key, keymap.action(for: key, in: .browse)) {
                case (_, _, .down): picker.cursor = min(max(0, entries.count - 1), picker.cursor + 1)
                case (_, _, .up): picker.cursor = max(0, picker.cursor - 1)
                case (_, _, .quit):
                    ui.overlay = nil
                    return outcome
                case (.tagFilter, .character("a"), _):
                    switch state.list.filter.tags {
                    case .any(let ids): outcome.events.append(.tagFilterChanged(.all(ids)))
                    case .all(let ids): outcome.events.append(.tagFilterChanged(.any(ids)))
                    default: break
                    }
                case (.tagFilter, .character("x"), _): outcome.events.append(.tagFilterChanged(.none))
                case (.manageTags, .character("n"), _):
                    ui.overlay = .prompt(UIState.Prompt(.newTag))
                    return outcome
                case (.manageTags, .character("r"), _):
                    if case .tag(let id)? = entry?.choice {
                        ui.overlay = .prompt(UIState.Prompt(.renameTag(id: id), text: state.tags.tag(id: id)?.name ?? ""))
                        return outcome
                    }
                case (.manageTags, .character("c"), _):
                    if case .tag(let id)? = entry?.choice {
                        ui.overlay = .prompt(UIState.Prompt(.recolourTag(id: id), text: state.tags.tag(id: id)?.color ?? ""))
                        return outcome
                    }
                case (.manageTags, .character("x"), _), (.manageTags, .character("d"), _), (.manageTags, .delete, _):
                    if case .tag(let id)? = entry?.choice {
                        ui.overlay = .prompt(UIState.Prompt(.deleteTag(id: id)))
                        return outcome
                    }
                default: break
                }
            }
        }
        ui.overlay = .picker(picker)
        return outcome
    }

    /// What choosing a picker entry sends.
    private mutating func choose(_ entry: PickerEntry, in kind: UIState.Picker.Kind, state: BrowserState) -> [BrowserEvent] {
        switch (kind, entry.choice) {
        case (.tags, .tag(let id)): return [.tagToggled(tagID: id)]
        case (.tags, .createTag(let name)):
            ui.pendingTagToApply = state.tagTargets.isEmpty ? nil : name
            return [.tagCreationRequested(name: name, color: nil)]
        case (.tagFilter, .untagged):
            return [.tagFilterChanged(state.list.filter.tags == .untagged ? .none : .untagged)]
        case (.tagFilter, .tag(let id)):
            var ids: Set<Int>, all = false
            switch state.list.filter.tags {
            case .any(let current): ids = current
            case .all(let current): ids = current; all = true
            case .none, .untagged: ids = []
            }
            if ids.contains(id) { ids.remove(id) } else { ids.insert(id) }
            if ids.isEmpty { return [.tagFilterChanged(.none)] }
            return [.tagFilterChanged(all ? .all(ids) : .any(ids))]
        case (.variant, .variant(let size)): return [.downloadVariantChosen(size)]
        default: return []
        }
    }

    private mutating func handlePrompt(_ key: Key, _ prompt: UIState.Prompt) -> Outcome {
        var prompt = prompt
        let backToManager = UIState.Overlay.picker(UIState.Picker(kind: .manageTags))
        if prompt.isConfirmation {
            switch key {
            case .character("y"), .character("Y"):
                ui.overlay = backToManager
                if case .deleteTag(let id) = prompt.purpose { return Outcome(events: [.tagDeletionRequested(tagID: id)]) }
            case .character("n"), .character("N"), .escape: ui.overlay = backToManager
            default: break
            }
            return Outcome()
        }
        switch key {
        case .escape:
            ui.overlay = backToManager
            return Outcome()
        case .enter:
            let text = prompt.field.text.trimmingCharacters(in: .whitespaces)
            var event: BrowserEvent?
            switch prompt.purpose {
            case .newTag, .renameTag:
                guard !text.isEmpty else {
                    prompt.problem = "A tag needs a name."
                    ui.overlay = .prompt(prompt)
                    return Outcome()
                }
                if case .renameTag(let id) = prompt.purpose { event = .tagRenameRequested(tagID: id, name: text) }
                else { event = .tagCreationRequested(name: text, color: nil) }
            case .recolourTag(let id):
                if text.isEmpty {
                    event = .tagRecolourRequested(tagID: id, color: nil)
                } else if let color = TagColor(hex: text) {
                    event = .tagRecolourRequested(tagID: id, color: Self.hex(color))
                } else {
                    prompt.problem = "Write the colour as #rrggbb, like #e94b60, or leave it empty."
                    ui.overlay = .prompt(prompt)
                    return Outcome()
                }
            case .deleteTag: break
            }
            ui.overlay = backToManager
            return Outcome(events: event.map { [$0] } ?? [])
        default:
            if prompt.field.edit(key) { prompt.problem = nil }
            ui.overlay = .prompt(prompt)
            return Outcome()
        }
    }

    static func hex(_ color: TagColor) -> String {
        let digits = [color.red, color.green, color.blue].map { value -> String in
            let text = String(value, radix: 16)
            return text.count == 1 ? "0" + text : text
        }
        return "#" + digits.joined()
    }

    /// Rows a wheel turn scrolls a panel: 3 either way, none for a click.
    private static func wheelRows(_ mouse: MouseEvent) -> Int {
        switch mouse.kind {
        case .wheelDown: 3
        case .wheelUp: -3
        case .click: 0
        }
    }

    /// The position a click on the scroll bar jumps to, or nil when it missed the bar.
    private func scrollBarPosition(_ mouse: MouseEvent, bar: Rect, count: Int) -> Int? {
        guard count > 0, mouse.x == bar.x, mouse.y >= bar.y, mouse.y < bar.maxY, bar.height > 0 else { return nil }
        return min(count - 1, (mouse.y - bar.y) * count / bar.height)
    }

    /// The wheel moves a row of tiles; a click puts the cursor on the tile, and one on its mark also
    /// selects it, as in the list; the scroll bar jumps.
    private func handleGridMouse(_ mouse: MouseEvent, grid: ScreenLayout.Grid, scrollBar: Rect, list: PhotoList) -> Outcome {
        guard list.count > 0 else { return Outcome() }
        switch mouse.kind {
        case .wheelDown, .wheelUp:
            let delta = mouse.kind == .wheelDown ? grid.columns : -grid.columns
            let target = min(max(0, list.cursor + delta), list.count - 1)
            return Outcome(events: target == list.cursor ? [] : [.cursorMoved(.position(target))])
        case .click:
            if let position = scrollBarPosition(mouse, bar: scrollBar, count: list.count) {
                return Outcome(events: [.cursorMoved(.position(position))])
            }
            let area = grid.area
            guard mouse.x >= area.x, mouse.y >= area.y else { return Outcome() }
            let column = (mouse.x - area.x) / grid.tileWidth, row = (mouse.y - area.y) / grid.tileHeight
            guard column < grid.columns, row < grid.rows else { return Outcome() }
            let position = (grid.firstRow(top: list.top, cursor: list.cursor) + row) * grid.columns + column
            guard position < list.count else { return Outcome() }
            let tile = grid.tile(row: row, column: column)
            let onMark = mouse.y == tile.y + 1 + grid.thumbnailRows && mouse.x <= tile.x + 2
            return Outcome(events: [.cursorMoved(.position(position))] + (onMark ? [.selectionToggled] : []))
        }
    }

    private mutating func handleMouse(_ mouse: MouseEvent, state: BrowserState, layout: ScreenLayout) -> Outcome {
        guard !layout.tooSmall else { return Outcome() }
        switch ui.overlay {
        case .help(let scroll):
            ui.overlay = bounded(.help(scroll: scroll + Self.wheelRows(mouse)), state: state)
            return Outcome()
        case .details(let scroll):
            ui.overlay = bounded(.details(scroll: scroll + Self.wheelRows(mouse)), state: state)
            return Outcome()
        case .some: return Outcome()
        case nil: break
        }
        if mouse.kind != .click { ui.travel = mouse.kind == .wheelDown ? 1 : -1 }
        if ui.fullPreview {
            switch mouse.kind {
            case .wheelDown: return Outcome(events: [.cursorMoved(.down)])
            case .wheelUp: return Outcome(events: [.cursorMoved(.up)])
            case .click: return Outcome()
            }
        }
        if let grid = layout.grid { return handleGridMouse(mouse, grid: grid, scrollBar: layout.scrollBar, list: state.list) }
        let rows = layout.listRows
        switch mouse.kind {
        case .wheelDown: return Outcome(events: Array(repeating: .cursorMoved(.down), count: 3))
        case .wheelUp: return Outcome(events: Array(repeating: .cursorMoved(.up), count: 3))
        case .click:
            let count = state.list.count
            guard count > 0 else { return Outcome() }
            if let position = scrollBarPosition(mouse, bar: layout.scrollBar, count: count) {
                return Outcome(events: [.cursorMoved(.position(position))])
            }
            guard mouse.y >= rows.y, mouse.y < rows.maxY, mouse.x >= rows.x, mouse.x < rows.maxX else { return Outcome() }
            let position = state.list.top + mouse.y - rows.y
            guard position < count else { return Outcome() }
            var events: [BrowserEvent] = [.cursorMoved(.position(position))]
            if mouse.x < rows.x + 2 { events.append(.selectionToggled) }
            return Outcome(events: events)
        }
    }

    // MARK: Layout and session events

    /// Tells the model how many rows the list shows, when that changes.
    public mutating func layoutChanged(_ layout: ScreenLayout) -> [BrowserEvent] {
        let rows = layout.pageItems
        guard rows != pageRows else { return [] }
        pageRows = rows
        return [.viewResized(rows: rows)]
    }

    /// Watches the session: a tag created from the picker is added to the photos once it exists.
    public mutating func observe(_ event: BrowserEvent) -> [BrowserEvent] {
        guard let pending = ui.pendingTagToApply else { return [] }
        switch event {
        case .tagSaved(let tag) where PhotoPickKit.Tag.nameKey(tag.name) == PhotoPickKit.Tag.nameKey(pending):
            ui.pendingTagToApply = nil
            return [.tagToggled(tagID: tag.id)]
        case .tagOperationFailed:
            ui.pendingTagToApply = nil
            return []
        default:
            return []
        }
    }
}
