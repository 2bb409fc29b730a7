/// Where each part of the screen goes at a given size. Narrow terminals drop the side pane, then the
/// list's columns; below the minimum only a message is shown.
public struct ScreenLayout: Sendable, Equatable {
    /// The smallest screen that shows the browser.
    public static let minimumWidth = 40, minimumHeight = 10

    /// Which list columns fit.
    public struct Columns: Sendable, Equatable {
        public var chips: Bool
        public var date: Bool
        public var size: Bool
    }

    public let tooSmall: Bool
    public let header: Rect
    public let status: Rect
    /// The queue strip, when downloads exist.
    public let strip: Rect?
    /// The list and the side pane.
    public let body: Rect
    /// The list's column titles.
    public let listHeader: Rect
    /// The list's rows, scroll bar excluded.
    public let listRows: Rect
    /// The scroll bar's column.
    public let scrollBar: Rect
    public let sidePane: Rect?
    public let columns: Columns

    public init(width: Int, height: Int, showsStrip: Bool) {
        let bounds = Rect(x: 0, y: 0, width: width, height: height)
        tooSmall = width < Self.minimumWidth || height < Self.minimumHeight
        let (header, rest) = bounds.splitTop(1)
        let (status, above) = rest.splitBottom(1)
        let (strip, body) = showsStrip ? above.splitBottom(1) : (Rect(x: 0, y: 0, width: 0, height: 0), above)
        self.header = header
        self.status = status
        self.strip = showsStrip ? strip : nil
        self.body = body
        var list = body
        if width >= 80 && body.height >= 8 {
            let paneWidth = min(56, width * 3 / 8)
            let (pane, rest) = body.splitRight(paneWidth)
            sidePane = pane
            list = rest
        } else {
            sidePane = nil
        }
        let (scrollBar, listArea) = list.splitRight(1)
        self.scrollBar = Rect(x: scrollBar.x, y: scrollBar.y + 1, width: 1, height: scrollBar.height - 1)
        let (listHeader, listRows) = listArea.splitTop(1)
        self.listHeader = listHeader
        self.listRows = listRows
        columns = Columns(chips: listArea.width >= 30, date: listArea.width >= 48, size: listArea.width >= 34)
    }
}
