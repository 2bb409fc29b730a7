import PhotoBrowser
import PhotoPickSettings

/// Compare: h and l (and the arrows) choose the active photo, the mark keys mark it, in cull mode's
/// digits too, and Esc or `C` returns to where compare was opened.
enum CompareMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard var compare = context.ui.compare else { return }
        // The digits mark here without cull mode: comparing is culling.
        if let markKey = context.keymap.action(for: key, in: .cull)?.markKey {
            return context.send(.tags(.photoMarked(markKey, photoID: compare.activeID)))
        }
        guard let action = context.action(key) else { return }
        if let markKey = action.markKey { return context.send(.tags(.photoMarked(markKey, photoID: compare.activeID))) }
        switch action {
        case .left, .up: compare.move(by: -1)
        case .right, .down: compare.move(by: 1)
        case .top: compare.move(by: -compare.photoIDs.count)
        case .bottom: compare.move(by: compare.photoIDs.count)
        case .cancel, .compare:
            context.ui.compare = nil
            return
        case .zoom:
            context.ui.compare = compare
            return LoupeMode.open(&context)
        case .histogram: context.ui.histogram.toggle()
        case .clipping: context.ui.clipping.toggle()
        case .undo: context.send(.undoRequested)
        case .help: context.ui.overlay = .help(scroll: 0)
        case .quit:
            if context.state.hasUnfinishedWork { context.ui.overlay = .confirmQuit } else { context.outcome.quit = true }
        default: break
        }
        context.ui.compare = compare
    }
}
