import PhotoBrowser
import PhotoPickSettings

/// Help and details: panels that scroll with the movement keys and close with anything else.
enum ScrollingPanelMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        switch context.ui.overlay {
        case .help(let scroll):
            context.ui.overlay = scrolled(key, scroll, context).map { bounded(.help(scroll: $0), context) }
        case .details(let scroll):
            if key == .escape || key == .enter || context.action(key) == .quit {
                context.ui.overlay = nil
            } else {
                context.ui.overlay = bounded(.details(scroll: scrolled(key, scroll, context) ?? scroll), context)
            }
        default: break
        }
    }

    /// The new scroll offset for a key, or nil when the key closes the panel.
    private static func scrolled(_ key: Key, _ scroll: Int, _ context: InputContext) -> Int? {
        switch context.action(key) {
        case .down: scroll + 1
        case .up: max(0, scroll - 1)
        case .halfPageDown, .pageDown: scroll + 10
        case .halfPageUp, .pageUp: max(0, scroll - 10)
        case .top: 0
        default: nil
        }
    }

    /// The panel with its scroll kept within its lines.
    static func bounded(_ overlay: UIState.Overlay, _ context: InputContext) -> UIState.Overlay {
        switch overlay {
        case .help(let scroll): return .help(scroll: min(max(0, scroll), HelpView.page(context.helpLines, in: context.layout.body).rows.count))
        case .details(let scroll):
            let state = context.state
            let focus = state.list.currentIndex.flatMap(state.focusFacts(at:))
            let rows = state.currentPhoto.map { MetadataPresenter().rows(for: $0, tags: state.tags, focus: focus, pair: state.currentPairPartner).count } ?? 0
            return .details(scroll: min(max(0, scroll), rows))
        default: return overlay
        }
    }
}

/// "Quit with work unfinished?": y or Enter quits, n or Esc goes back.
enum ConfirmQuitMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        switch key {
        case .character("y"), .character("Y"), .enter: context.outcome.quit = true
        case .character("n"), .character("N"), .escape: context.ui.overlay = nil
        default: if context.action(key) == .quit { context.outcome.quit = true }
        }
    }
}
