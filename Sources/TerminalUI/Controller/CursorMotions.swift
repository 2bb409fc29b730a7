import PhotoBrowser
import PhotoPickSettings

/// How actions move the cursor through the list and the grid.
enum CursorMotions {
    /// Through the list, one photo per row.
    static func list(_ action: Action) -> CursorMotion? {
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
    static func travel(of action: Action) -> Int? {
        switch action {
        case .down, .right, .halfPageDown, .pageDown, .bottom, .toggleSelection: 1
        case .up, .left, .halfPageUp, .pageUp, .top: -1
        default: nil
        }
    }

    /// Through the grid: up and down go a row of tiles, left and right one photo, half a page is half
    /// the rows; the column is kept. `.some(nil)` when the move goes nowhere, nil for other actions.
    static func grid(_ action: Action, grid: ScreenLayout.Grid, list: PhotoList) -> CursorMotion?? {
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
}
