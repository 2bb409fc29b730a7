/// One cell of the screen: the glyph that starts in it, or nothing when the glyph to its left is two
/// columns wide.
struct Cell: Sendable, Equatable {
    /// The scalars drawn here; empty in the right half of a wide glyph.
    var text: String
    /// Columns the glyph takes: 1 or 2, or 0 for the right half of a wide glyph.
    var width: UInt8
    var style: Style

    init(text: String = " ", width: UInt8 = 1, style: Style = .plain) {
        self.text = text
        self.width = width
        self.style = style
    }

    static let blank = Cell()
}

/// A rectangle of the canvas, in cells.
public struct Rect: Sendable, Equatable {
    /// The top-left cell and the size.
    public var x: Int, y: Int, width: Int, height: Int

    /// A rectangle; a negative size is taken as none.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    var maxX: Int { x + width }
    var maxY: Int { y + height }

    /// Rows from the top, and what is left.
    func splitTop(_ rows: Int) -> (Rect, Rect) {
        let rows = min(max(0, rows), height)
        return (Rect(x: x, y: y, width: width, height: rows), Rect(x: x, y: y + rows, width: width, height: height - rows))
    }

    /// Rows from the bottom, and what is left above them.
    func splitBottom(_ rows: Int) -> (Rect, Rect) {
        let rows = min(max(0, rows), height)
        return (Rect(x: x, y: maxY - rows, width: width, height: rows), Rect(x: x, y: y, width: width, height: height - rows))
    }

    /// Columns from the right, and what is left to their left.
    func splitRight(_ columns: Int) -> (Rect, Rect) {
        let columns = min(max(0, columns), width)
        return (Rect(x: maxX - columns, y: y, width: columns, height: height), Rect(x: x, y: y, width: width - columns, height: height))
    }

    /// This rectangle shrunk by `by` on every side.
    func inset(_ by: Int) -> Rect {
        Rect(x: x + by, y: y + by, width: width - 2 * by, height: height - 2 * by)
    }

    /// Whether the two share a cell.
    func intersects(_ other: Rect) -> Bool {
        x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
    }

    /// A rectangle of this size centred in this one.
    func centred(width: Int, height: Int) -> Rect {
        let width = min(width, self.width), height = min(height, self.height)
        return Rect(x: x + (self.width - width) / 2, y: y + (self.height - height) / 2, width: width, height: height)
    }
}

/// The screen as cells. Views draw into it; the driver sends the terminal only the cells that differ
/// from the last frame. Drawing never goes outside the canvas or the clip it is given, and a wide glyph
/// that would be cut in half is left out.
public struct Canvas: Sendable, Equatable {
    let width: Int
    let height: Int
    private(set) var cells: [Cell]
    /// The images placed on the canvas, in drawing order.
    public internal(set) var images: [ImagePlacement] = []

    /// A blank canvas of this size.
    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        cells = Array(repeating: .blank, count: self.width * self.height)
    }

    var bounds: Rect { Rect(x: 0, y: 0, width: width, height: height) }

    subscript(x: Int, y: Int) -> Cell {
        cells[y * width + x]
    }

    /// Fills a rectangle with spaces in a style.
    mutating func fill(_ rect: Rect, style: Style = .plain) {
        let blank = Cell(style: style)
        let (left, right) = (max(0, rect.x), min(width, rect.maxX))
        let (top, bottom) = (max(0, rect.y), min(height, rect.maxY))
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            let row = y * width
            // A wide glyph cut by either edge loses its other half too.
            breakWideGlyph(at: row + left, x: left)
            if right < width, cells[row + right].width == 0 { cells[row + right] = Cell(style: cells[row + right].style) }
            for x in left..<right { cells[row + x] = blank }
        }
    }

    /// Draws text from column `x` of row `y`, at most `limit` columns wide and never past `clip`.
    /// Text that does not fit ends in `…`, cut between glyphs. Returns the columns drawn.
    @discardableResult
    mutating func draw(
        _ text: some StringProtocol, x: Int, y: Int, style: Style = .plain, limit: Int? = nil, clip: Rect? = nil
    ) -> Int {
        let clip = clip ?? bounds
        guard y >= max(0, clip.y), y < min(height, clip.maxY) else { return 0 }
        let right = min(width, clip.maxX, limit.map { x + max(0, $0) } ?? Int.max)
        let available = right - x
        guard available > 0 else { return 0 }
        let glyphs = text.lazy.map(TerminalGlyph.init)
        // No character is wider than its UTF-8 bytes, so most text is known to fit without measuring it.
        let fits = text.utf8.count <= available || glyphs.reduce(0, { $0 + $1.width }) <= available
        let budget = fits ? available : available - 1
        var column = x
        for glyph in glyphs {
            guard column + glyph.width <= x + budget else { break }
            put(glyph, x: column, y: y, style: style, clipLeft: max(0, clip.x))
            column += glyph.width
        }
        if !fits {
            put(TerminalGlyph("…"), x: column, y: y, style: style, clipLeft: max(0, clip.x))
            column += 1
        }
        return column - x
    }

    /// Draws text right-aligned so that it ends at column `maxX` (exclusive). Returns its first column.
    @discardableResult
    mutating func drawRight(_ text: some StringProtocol, maxX: Int, y: Int, style: Style = .plain, limit: Int) -> Int {
        let width = min(DisplayWidth.of(text), limit)
        draw(text, x: maxX - width, y: y, style: style, limit: width)
        return maxX - width
    }

    /// Sets one cell to a single-column glyph, such as a pixel of a preview; outside the canvas it does nothing.
    mutating func set(x: Int, y: Int, text: String, style: Style) {
        guard x >= 0, x < width, y >= 0, y < height else { return }
        let index = y * width + x
        breakWideGlyph(at: index, x: x)
        cells[index] = Cell(text: text, width: 1, style: style)
        if x + 1 < width, cells[index + 1].width == 0 { cells[index + 1] = Cell(style: cells[index + 1].style) }
    }

    /// Sets the style of cells in a rectangle and keeps their text.
    mutating func restyle(_ rect: Rect, _ change: (inout Style) -> Void) {
        let (left, right) = (max(0, rect.x), min(width, rect.maxX))
        let (top, bottom) = (max(0, rect.y), min(height, rect.maxY))
        guard left < right, top < bottom else { return }
        for y in top..<bottom {
            for x in left..<right { change(&cells[y * width + x].style) }
        }
    }

    private mutating func put(_ glyph: TerminalGlyph, x: Int, y: Int, style: Style, clipLeft: Int) {
        guard x >= clipLeft, x + glyph.width <= width else { return }
        let index = y * width + x
        breakWideGlyph(at: index, x: x)
        cells[index] = Cell(text: glyph.text, width: UInt8(glyph.width), style: style)
        if glyph.width == 2 {
            if x + 2 < width, cells[index + 2].width == 0 { cells[index + 2] = Cell(style: cells[index + 2].style) }
            cells[index + 1] = Cell(text: "", width: 0, style: style)
        } else if x + 1 < width, cells[index + 1].width == 0 {
            cells[index + 1] = Cell(style: cells[index + 1].style)
        }
    }

    /// Overwriting either half of a wide glyph blanks the other half, so no half glyph is ever drawn.
    private mutating func breakWideGlyph(at index: Int, x: Int) {
        if cells[index].width == 0, x > 0 { cells[index - 1] = Cell(style: cells[index - 1].style) }
    }

    /// The text of row `y`, with wide glyphs once and trailing spaces kept.
    func text(row y: Int) -> String {
        var line = ""
        for x in 0..<width { line += self[x, y].text }
        return line
    }

    /// Every row's text, trailing spaces trimmed, joined by newlines.
    public var text: String {
        (0..<height).map { row in
            var line = text(row: row)
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n")
    }

    /// Rows whose cells differ from `other`'s; every row when the sizes differ.
    public func changedRows(since other: Canvas) -> [Int] {
        guard other.width == width, other.height == height else { return Array(0..<height) }
        return (0..<height).filter { y in
            let start = y * width
            return cells[start..<start + width] != other.cells[start..<start + width]
        }
    }
}
