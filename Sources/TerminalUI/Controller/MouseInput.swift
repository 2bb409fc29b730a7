import PhotoBrowser

/// Clicks and the wheel: the wheel scrolls panels and moves the cursor; a click puts the cursor on a
/// row or tile, one on its mark also selects it, and the scroll bar jumps.
enum MouseInput {
    static func handle(_ mouse: MouseEvent, _ context: inout InputContext) {
        switch context.ui.overlay {
        case .help(let scroll):
            return context.ui.overlay = ScrollingPanelMode.bounded(.help(scroll: scroll + wheelRows(mouse)), context)
        case .details(let scroll):
            return context.ui.overlay = ScrollingPanelMode.bounded(.details(scroll: scroll + wheelRows(mouse)), context)
        case .some: return
        case nil: break
        }
        if var zoom = context.ui.zoom {
            // The wheel pans the loupe up and down; a click means nothing there.
            if mouse.kind != .click, let loupe = context.loupe {
                zoom.pan(mouse.kind == .wheelDown ? .down : .up, loupe)
                context.ui.zoom = zoom
            }
            return
        }
        if mouse.kind != .click { context.ui.travel = mouse.kind == .wheelDown ? 1 : -1 }
        if context.ui.fullPreview {
            switch mouse.kind {
            case .wheelDown: context.send(.browsing(.cursorMoved(.down)))
            case .wheelUp: context.send(.browsing(.cursorMoved(.up)))
            case .click: break
            }
        } else if let grid = context.layout.grid {
            gridMouse(mouse, grid: grid, &context)
        } else {
            listMouse(mouse, &context)
        }
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
    private static func scrollBarPosition(_ mouse: MouseEvent, bar: Rect, count: Int) -> Int? {
        guard count > 0, mouse.x == bar.x, mouse.y >= bar.y, mouse.y < bar.maxY, bar.height > 0 else { return nil }
        return min(count - 1, (mouse.y - bar.y) * count / bar.height)
    }

    private static func listMouse(_ mouse: MouseEvent, _ context: inout InputContext) {
        let rows = context.layout.listRows, list = context.state.list
        switch mouse.kind {
        case .wheelDown: for _ in 0..<3 { context.send(.browsing(.cursorMoved(.down))) }
        case .wheelUp: for _ in 0..<3 { context.send(.browsing(.cursorMoved(.up))) }
        case .click:
            guard list.count > 0 else { return }
            if let position = scrollBarPosition(mouse, bar: context.layout.scrollBar, count: list.count) {
                return context.send(.browsing(.cursorMoved(.position(position))))
            }
            guard mouse.y >= rows.y, mouse.y < rows.maxY, mouse.x >= rows.x, mouse.x < rows.maxX else { return }
            let position = list.top + mouse.y - rows.y
            guard position < list.count else { return }
            context.send(.browsing(.cursorMoved(.position(position))))
            if mouse.x < rows.x + 2 { context.send(.selection(.selectionToggled)) }
        }
    }

    /// The wheel moves a row of tiles; a click picks a tile, and one on its mark selects it too.
    private static func gridMouse(_ mouse: MouseEvent, grid: ScreenLayout.Grid, _ context: inout InputContext) {
        let list = context.state.list
        guard list.count > 0 else { return }
        switch mouse.kind {
        case .wheelDown, .wheelUp:
            let delta = mouse.kind == .wheelDown ? grid.columns : -grid.columns
            let target = min(max(0, list.cursor + delta), list.count - 1)
            if target != list.cursor { context.send(.browsing(.cursorMoved(.position(target)))) }
        case .click:
            if let position = scrollBarPosition(mouse, bar: context.layout.scrollBar, count: list.count) {
                return context.send(.browsing(.cursorMoved(.position(position))))
            }
            let area = grid.area
            guard mouse.x >= area.x, mouse.y >= area.y else { return }
            let column = (mouse.x - area.x) / grid.tileWidth, row = (mouse.y - area.y) / grid.tileHeight
            guard column < grid.columns, row < grid.rows else { return }
            let position = (grid.firstRow(top: list.top, cursor: list.cursor) + row) * grid.columns + column
            guard position < list.count else { return }
            let tile = grid.tile(row: row, column: column)
            context.send(.browsing(.cursorMoved(.position(position))))
            if mouse.y == tile.y + 1 + grid.thumbnailRows && mouse.x <= tile.x + 2 { context.send(.selection(.selectionToggled)) }
        }
    }
}
