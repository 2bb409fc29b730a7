import PhotoBrowser
import PhotoPickSettings

/// The charts: the movement keys choose a bar (j and l the next, k and h the one before, g and G the
/// ends), Enter filters the list to the chosen bar's photos and closes them, Esc or `I` closes them.
enum StatsMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard case .stats(var cursor) = context.ui.overlay else { return }
        let targets = StatsView.layout(cursor.stats, in: context.layout.body).targets
        let last = max(0, targets.count - 1)
        if key == .enter {
            guard targets.indices.contains(cursor.chosen), let term = targets[cursor.chosen].term else { return }
            // The term joins the filter: the charts narrow a search, as a timeline scrubber does.
            var current = context.state.list.filter.text.trimmingCharacters(in: .whitespaces)
            // A quote left open would take the term into its words.
            if current.filter({ $0 == "\"" }).count % 2 == 1 { current += "\"" }
            context.ui.overlay = nil
            return context.send(.browsing(.filterTextChanged(current.isEmpty ? term : "\(current) \(term)")))
        }
        switch context.action(key) {
        case .down?, .right?: cursor.chosen = min(last, cursor.chosen + 1)
        case .up?, .left?: cursor.chosen = max(0, cursor.chosen - 1)
        case .halfPageDown?, .pageDown?: cursor.chosen = min(last, cursor.chosen + 10)
        case .halfPageUp?, .pageUp?: cursor.chosen = max(0, cursor.chosen - 10)
        case .top?: cursor.chosen = 0
        case .bottom?: cursor.chosen = last
        case .cancel?, .stats?:
            context.ui.overlay = nil
            return
        case .quit?:
            if context.state.hasUnfinishedWork { context.ui.overlay = .confirmQuit } else { context.outcome.quit = true }
            return
        default: break
        }
        context.ui.overlay = .stats(cursor)
    }
}
