import PhotoPickSettings

/// `/`: the filter is typed into the status line and applied as it changes; arrows still move.
enum FilterPromptMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard var field = context.ui.filterField else { return }
        switch key {
        case .enter: context.ui.filterField = nil
        case .escape:
            context.ui.filterField = nil
            context.send(.browsing(.filterTextChanged("")))
        case .up: context.send(.browsing(.cursorMoved(.up)))
        case .down: context.send(.browsing(.cursorMoved(.down)))
        default:
            guard field.edit(key) else { return }
            context.ui.filterField = field
            context.send(.browsing(.filterTextChanged(field.text)))
        }
    }
}
