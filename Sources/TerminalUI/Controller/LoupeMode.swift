import PhotoBrowser
import PhotoImaging
import PhotoPickSettings

/// The loupe: h, j, k, l and the arrows pan by a third of the view (every photo of compare together),
/// the mark keys mark the photo shown (compare's active one), and `z` or Esc returns.
enum LoupeMode: KeyMode {
    /// `z` in full screen or compare: the loupe opens where the photo shown is sharpest.
    static func open(_ context: inout InputContext) {
        guard let loupe = context.loupe else { return }
        var zoom = UIState.Zoom(centre: loupe.focus())
        zoom.clamp(loupe)
        context.ui.zoom = zoom
    }

    static func handle(_ key: Key, _ context: inout InputContext) {
        guard var zoom = context.ui.zoom else { return }
        let photoID = context.ui.compare?.activeID ?? context.state.currentPhoto?.id
        // The digits mark here without cull mode, as in compare: looking closely is culling.
        if let markKey = context.keymap.action(for: key, in: .cull)?.markKey {
            if let photoID { context.send(.tags(.photoMarked(markKey, photoID: photoID))) }
            return
        }
        guard let action = context.action(key) else { return }
        if let markKey = action.markKey {
            if let photoID { context.send(.tags(.photoMarked(markKey, photoID: photoID))) }
            return
        }
        let direction: Loupe.Direction? = switch action {
        case .left: .left
        case .right: .right
        case .up: .up
        case .down: .down
        default: nil
        }
        if let direction {
            if let loupe = context.loupe { zoom.pan(direction, loupe) }
            context.ui.zoom = zoom
            return
        }
        switch action {
        case .zoom, .cancel: context.ui.zoom = nil
        case .histogram: context.ui.histogram.toggle()
        case .clipping: context.ui.clipping.toggle()
        case .undo: context.send(.undoRequested)
        case .help: context.ui.overlay = .help(scroll: 0)
        case .quit:
            if context.state.hasUnfinishedWork { context.ui.overlay = .confirmQuit } else { context.outcome.quit = true }
        default: break
        }
    }
}
