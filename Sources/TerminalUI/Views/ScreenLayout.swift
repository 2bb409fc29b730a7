/// Where each part of the screen goes at a given size. Narrow terminals drop the side pane, then the
/// list's columns; below the minimum only a message is shown.
public struct ScreenLayout: Sendable, Equatable {
    /// The smallest screen that shows the browser.
    static let minimumWidth = 40, minimumHeight = 10

    /// Which list columns fit.
    struct Columns: Sendable, Equatable {
        var chips: Bool
        /// Flag, stars and label.
        var marks: Bool
        var date: Bool
        var size: Bool
    }

    let tooSmall: Bool
    /// The whole screen.
    let bounds: Rect
    let header: Rect
    let status: Rect
    /// The queue strip, when downloads exist.
    let strip: Rect?
    /// The list and the side pane.
    let body: Rect
    /// The list's column titles.
    let listHeader: Rect
    /// The list's rows, scroll bar excluded.
    let listRows: Rect
    /// The scroll bar's column.
    let scrollBar: Rect
    let sidePane: Rect?
    let columns: Columns
    /// The contact sheet, in grid mode.
    public let grid: Grid?

    /// How many photos a page holds: rows of the list, or tiles of the grid.
    public var pageItems: Int { grid.map { $0.columns * $0.rows } ?? max(1, listRows.height) }

    /// Tiles of thumbnails, each a thumbnail above the mark and name and a row of tag chips, inside
    /// a border that only the current tile shows.
    public struct Grid: Sendable, Equatable {
        /// Columns a tile aims for; the sheet's width is shared out evenly.
        static let preferredTileWidth = 22

        let area: Rect
        /// Tiles across.
        public let columns: Int
        /// Tile rows that fit whole.
        public let rows: Int
        let tileWidth: Int
        let tileHeight: Int
        /// Rows of the thumbnail itself.
        let thumbnailRows: Int

        init(area: Rect) {
            self.area = area
            columns = max(1, area.width / Self.preferredTileWidth)
            tileWidth = max(6, area.width / columns)
            // About 3:2 with two pixels per row, as a landscape photo; lower when that fills the height
            // better, so a low window shows two rows of tiles rather than one and a gap.
            let tallest = max(1, (tileWidth - 2) / 3)
            let rowsThatFit = max(1, Int((Double(area.height) / Double(tallest + 4)).rounded()))
            thumbnailRows = max(1, min(tallest, area.height / rowsThatFit - 4))
            tileHeight = thumbnailRows + 4
            rows = max(1, area.height / tileHeight)
        }

        /// The tile at a row and column of the sheet as it is shown.
        func tile(row: Int, column: Int) -> Rect {
            Rect(x: area.x + column * tileWidth, y: area.y + row * tileHeight, width: tileWidth, height: tileHeight)
        }

        /// Where the thumbnail of a tile goes.
        func thumbnail(in tile: Rect) -> Rect {
            Rect(x: tile.x + 1, y: tile.y + 1, width: tile.width - 2, height: thumbnailRows)
        }

        /// The first tile row shown, for the list's window onto the photos: it keeps the cursor's row in
        /// view and otherwise stays where the list's top puts it.
        func firstRow(top: Int, cursor: Int) -> Int {
            let cursorRow = cursor / columns
            var first = top / columns
            if cursorRow >= first + rows { first = cursorRow - rows + 1 }
            if cursorRow < first { first = cursorRow }
            return max(0, first)
        }
    }

    init(width: Int, height: Int, showsStrip: Bool, mode: UIState.Mode = .list) {
        bounds = Rect(x: 0, y: 0, width: width, height: height)
        tooSmall = width < Self.minimumWidth || height < Self.minimumHeight
        let (header, rest) = bounds.splitTop(1)
        let (status, above) = rest.splitBottom(1)
        let (strip, body) = showsStrip ? above.splitBottom(1) : (Rect(x: 0, y: 0, width: 0, height: 0), above)
        self.header = header
        self.status = status
        self.strip = showsStrip ? strip : nil
        self.body = body
        var list = body
        // The grid is a sheet across the whole body; the list shares it with the side pane when wide enough.
        if mode == .list && width >= 80 && body.height >= 8 {
            let paneWidth = min(56, width * 3 / 8)
            let (pane, rest) = body.splitRight(paneWidth)
            sidePane = pane
            list = rest
        } else {
            sidePane = nil
        }
        let (scrollBar, listArea) = list.splitRight(1)
        let (listHeader, listRows) = listArea.splitTop(1)
        self.listHeader = listHeader
        self.listRows = listRows
        columns = Columns(chips: listArea.width >= 30, marks: listArea.width >= 64, date: listArea.width >= 48, size: listArea.width >= 34)
        if mode == .grid && !tooSmall {
            self.scrollBar = scrollBar
            grid = Grid(area: listArea)
        } else {
            self.scrollBar = Rect(x: scrollBar.x, y: scrollBar.y + 1, width: 1, height: scrollBar.height - 1)
            grid = nil
        }
    }
}
