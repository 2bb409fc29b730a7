import PhotoBrowser
import PhotoPickKit

/// The contact sheet: a tile per photo with its thumbnail, mark and name, and tag chips. The current
/// tile is framed; selection and the visual range colour the name as in the list.
struct GridView: View {
    let context: ViewContext
    let state: BrowserState
    let grid: ScreenLayout.Grid
    let scrollBar: Rect

    func draw(in canvas: inout Canvas) {
        let list = state.list
        guard list.count > 0 else {
            drawEmptyList(state, in: grid.area, into: &canvas)
            return
        }
        let first = grid.firstRow(top: list.top, cursor: list.cursor)
        let visual = state.visualPositions
        for row in 0..<grid.rows {
            for column in 0..<grid.columns {
                let position = (first + row) * grid.columns + column
                guard position < list.count else { break }
                let index = list.libraryIndex(at: position)
                drawTile(
                    state.library.photo(at: index), tags: state.tags, stackCount: list.stackCount(at: position), pair: list.pairBadge(at: position, library: state.library), selected: state.selection.contains(index),
                    current: position == list.cursor, inVisualRange: visual?.contains(position) ?? false,
                    tile: grid.tile(row: row, column: column), grid: grid, into: &canvas
                )
            }
        }
        drawScrollBar(top: first * grid.columns, visible: grid.rows * grid.columns, total: list.count, in: scrollBar, into: &canvas)
    }

    private func drawTile(
        _ photo: Photo, tags: TagCatalog, stackCount: Int?, pair: String?, selected: Bool, current: Bool, inVisualRange: Bool, tile: Rect,
        grid: ScreenLayout.Grid, into canvas: inout Canvas
    ) {
        if current { canvas.drawBox(tile, style: theme.title) }
        drawPreview(
            photoID: photo.id, pixelWidth: photo.width, pixelHeight: photo.height,
            in: grid.thumbnail(in: tile), into: &canvas
        )
        let inner = tile.inset(1)
        let nameY = tile.y + 1 + grid.thumbnailRows
        guard nameY < tile.maxY - 1 else { return }
        let look = rowLook(selected: selected, current: current, inVisualRange: inVisualRange)
        let nameRow = Rect(x: inner.x, y: nameY, width: inner.width, height: 1)
        canvas.fill(nameRow, style: look.base)
        canvas.draw(look.markGlyph, x: nameRow.x, y: nameY, style: look.mark)
        var nameLimit = nameRow.width - 2
        if let badge = stackBadge(stackCount, pair: pair), nameLimit > 8 {
            nameLimit -= DisplayWidth.of(badge) + 1
            canvas.drawRight(badge, maxX: nameRow.maxX, y: nameY, style: current ? look.base : theme.label.on(look.base.background), limit: nameRow.width)
        }
        canvas.draw(TerminalText.sanitized(photo.filename), x: nameRow.x + 2, y: nameY, style: look.name, limit: nameLimit)
        let chipsY = nameY + 1
        guard chipsY < tile.maxY - 1 else { return }
        let marked = drawMarks(tags.marks(of: photo.tagIDs), x: inner.x + 2, y: chipsY, base: .plain, limit: inner.maxX - inner.x - 2, into: &canvas)
        drawChips(tags.ordinaryTags(photo.tagIDs), tags: tags, x: inner.x + 2 + (marked > 0 ? marked + 1 : 0), y: chipsY, maxX: inner.maxX, into: &canvas)
    }
}
