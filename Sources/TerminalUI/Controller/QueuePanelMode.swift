import PhotoBrowser
import PhotoPickSettings

/// `D`: the download queue; its own keys act on the item under the cursor.
enum QueuePanelMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard case .queue(let shownCursor) = context.ui.overlay else { return }
        let items = context.state.downloads.items
        // Items may have gone (cleared, cancelled) since the panel last moved.
        let cursor = min(shownCursor, max(0, items.count - 1))
        let item = items.indices.contains(cursor) ? items[cursor] : nil
        if key == .escape || context.action(key) == .queuePanel || context.action(key) == .quit {
            context.ui.overlay = nil
            return
        }
        if let action = context.keymap.action(for: key, in: .queue) {
            switch action {
            case .queuePause:
                if let item { context.send(item.status == .paused ? .downloads(.downloadResumed(id: item.id)) : .downloads(.downloadPaused(id: item.id))) }
            case .queueRetry:
                // The failed item under the cursor, or else every failed item.
                if let item, item.status.failure != nil {
                    context.send(.downloads(.downloadRetried(id: item.id)))
                } else {
                    context.send(.downloads(.failedDownloadsRetried))
                }
            case .queueCancel: if let item { context.send(.downloads(.downloadCancelled(id: item.id))) }
            case .concurrencyUp: context.send(.downloads(.concurrencyChanged(by: 1)))
            case .concurrencyDown: context.send(.downloads(.concurrencyChanged(by: -1)))
            case .clearFinished: context.send(.downloads(.finishedDownloadsCleared))
            default: break
            }
            return
        }
        let last = max(0, items.count - 1)
        switch context.action(key) {
        case .down: context.ui.overlay = .queue(cursor: min(last, cursor + 1))
        case .up: context.ui.overlay = .queue(cursor: max(0, cursor - 1))
        case .top: context.ui.overlay = .queue(cursor: 0)
        case .bottom: context.ui.overlay = .queue(cursor: last)
        default: break
        }
    }
}
