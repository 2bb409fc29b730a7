import PhotoBrowser
import PhotoPickSettings

/// `t`, `f` and `o`: a list to choose from. The tag picker types into its query; the others take
/// letters as commands.
enum PickerMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard case .picker(var picker) = context.ui.overlay else { return }
        guard let entry = moveCursor(key, &picker, context) else { return context.ui.overlay = .picker(picker) }
        switch key {
        case .escape: return context.ui.overlay = nil
        // Enter chooses in every picker; space does too in the tag filter's.
        case .enter,
             .character(" ") where picker.kind == .tagFilter:
            if let entry { choose(entry, in: picker.kind, &context) }
            if picker.kind == .variant || picker.kind == .savedSearches || picker.kind == .copy { return context.ui.overlay = nil }
        default:
            if picker.takesQuery {
                if picker.query.edit(key) { picker.cursor = 0 }
            } else if context.action(key) == .quit {
                return context.ui.overlay = nil
            } else if picker.kind == .tagFilter {
                filterCommand(key, &context)
            } else if picker.kind == .savedSearches, case .character(let digit) = key, let number = digit.wholeNumberValue,
                      (1...9).contains(number) {
                let entries = picker.entries(in: context.state)
                guard number <= entries.count else { return }
                choose(entries[number - 1], in: picker.kind, &context)
                return context.ui.overlay = nil
            }
        }
        context.ui.overlay = .picker(picker)
    }

    /// Keeps a picker's cursor on its entries, which may have gone (a tag deleted, the query narrowed)
    /// since it last moved, and moves it for the arrow keys, Tab and Ctrl-N/P, and in pickers without a
    /// query for the movement keys too. Returns nil when the key moved it, else the entry under the
    /// cursor (`.some(nil)` when there is none).
    static func moveCursor(_ key: Key, _ picker: inout UIState.Picker, _ context: InputContext) -> PickerEntry?? {
        let entries = picker.entries(in: context.state)
        let last = max(0, entries.count - 1)
        let browsing = picker.takesQuery ? nil : context.action(key)
        let step: Int
        switch key {
        case .down, .control("n"), .tab: step = 1
        case .up, .control("p"), .backTab: step = -1
        case _ where browsing == .down: step = 1
        case _ where browsing == .up: step = -1
        default: step = 0
        }
        picker.cursor = min(max(0, min(picker.cursor, last) + step), last)
        guard step == 0 else { return nil }
        return .some(entries.indices.contains(picker.cursor) ? entries[picker.cursor] : nil)
    }

    /// `a` switches the tag filter between any and all of the chosen tags; `x` clears it.
    private static func filterCommand(_ key: Key, _ context: inout InputContext) {
        switch (key, context.state.list.filter.tags) {
        case (.character("a"), .any(let ids)): context.send(.browsing(.tagFilterChanged(.all(ids))))
        case (.character("a"), .all(let ids)): context.send(.browsing(.tagFilterChanged(.any(ids))))
        case (.character("x"), _): context.send(.browsing(.tagFilterChanged(.none)))
        default: break
        }
    }

    /// What choosing an entry sends. Creating a tag from the tag picker also puts it on the targets,
    /// once the server has made it.
    private static func choose(_ entry: PickerEntry, in kind: UIState.Picker.Kind, _ context: inout InputContext) {
        let state = context.state
        switch (kind, entry.choice) {
        case (.tags, .tag(let id)): context.send(.tags(.tagToggled(tagID: id)))
        case (.tags, .createTag(let name)):
            context.send(.tags(.tagCreationRequested(name: name, color: nil, applyTo: state.tagTargets.map { state.library.id(at: $0) })))
        case (.tagFilter, .untagged):
            context.send(.browsing(.tagFilterChanged(state.list.filter.tags == .untagged ? .none : .untagged)))
        case (.tagFilter, .tag(let id)):
            var ids: Set<Int>, all = false
            switch state.list.filter.tags {
            case .any(let current): ids = current
            case .all(let current): ids = current; all = true
            case .none, .untagged: ids = []
            }
            if ids.contains(id) { ids.remove(id) } else { ids.insert(id) }
            context.send(.browsing(.tagFilterChanged(ids.isEmpty ? .none : all ? .all(ids) : .any(ids))))
        case (.variant, .variant(let size)): context.send(.downloads(.downloadVariantChosen(size)))
        case (.savedSearches, .search(let query)): context.send(.browsing(.filterTextChanged(query)))
        case (.copy, .copy(let text)): context.outcome.clipboard = text
        default: break
        }
    }
}
