import PhotoBrowser
import PhotoPickKit

/// Marks and stack badges, as the list, the grid, compare and the metadata draw them.
extension Drawing {
    /// Columns the marks take in a row: a flag, five stars and a label.
    static var marksWidth: Int { 7 }

    /// A photo's marks from `x`: the flag (⚑ pick, ✕ reject), its stars, then its label as a dot in
    /// the label's colour. Monochrome keeps the shapes and spells what colour would say: `P`/`X`
    /// flags and the label's initial. Returns the columns drawn; `fixed` pads to `marksWidth` so
    /// rows line up.
    @discardableResult
    func drawMarks(_ marks: PhotoMarks, x: Int, y: Int, base: Style, fixed: Bool, limit: Int = 16, into canvas: inout Canvas) -> Int {
        guard !marks.isEmpty || fixed else { return 0 }
        let monochrome = theme.depth == .monochrome
        var cells: [(String, Style)] = []
        func style(_ mark: Mark, bold: Bool = false) -> Style {
            var style = Style(foreground: theme.tagColor(TagColor(hex: mark.tagColor)), background: base.background)
            if monochrome || bold { style.attributes.insert(.bold) }
            return style
        }
        switch marks.flag {
        case .pick?: cells.append((monochrome ? "P" : "⚑", style(.flag(.pick), bold: true)))
        case .reject?: cells.append((monochrome ? "X" : "✕", style(.flag(.reject), bold: true)))
        case nil: if fixed { cells.append((" ", base)) }
        }
        for _ in 0..<marks.rating { cells.append(("★", style(.rating(marks.rating)))) }
        if fixed { cells += Array(repeating: (" ", base), count: 5 - marks.rating) }
        if let label = marks.label {
            cells.append((monochrome ? String(label.rawValue.prefix(1)) : "●", style(.label(label))))
        } else if fixed {
            cells.append((" ", base))
        }
        var drawn = 0
        for (glyph, style) in cells where drawn < limit {
            drawn += canvas.draw(glyph, x: x + drawn, y: y, style: style, limit: limit - drawn)
        }
        return drawn
    }

    /// Columns `drawMarks` takes for `marks` when not padded.
    static func marksWidth(of marks: PhotoMarks) -> Int {
        (marks.flag == nil ? 0 : 1) + marks.rating + (marks.label == nil ? 0 : 1)
    }

    /// A photo's marks padded to `slots`, so each part stands where it does on every row.
    func drawMarks(_ marks: PhotoMarks, x: Int, y: Int, base: Style, slots: MarkSlots, into canvas: inout Canvas) {
        var x = x
        var flag = marks, stars = marks, label = marks
        (flag.rating, flag.label) = (0, nil)
        (stars.flag, stars.label) = (nil, nil)
        (label.flag, label.rating) = (nil, 0)
        if slots.flag {
            drawMarks(flag, x: x, y: y, base: base, fixed: false, into: &canvas)
            x += 1
        }
        drawMarks(stars, x: x, y: y, base: base, fixed: false, limit: slots.stars, into: &canvas)
        x += slots.stars
        if slots.label { drawMarks(label, x: x, y: y, base: base, fixed: false, into: &canvas) }
    }

    /// `×5` for a closed stack of five, in the dim style.
    func stackBadge(_ count: Int?) -> String? {
        count.map { "×\($0)" }
    }
}

/// The slots a column of marks keeps so rows line up: a flag's, as many stars as the most, a label's.
struct MarkSlots: Equatable {
    var flag = false
    var stars = 0
    var label = false

    var width: Int { (flag ? 1 : 0) + stars + (label ? 1 : 0) }

    mutating func include(_ marks: PhotoMarks) {
        flag = flag || marks.flag != nil
        stars = max(stars, marks.rating)
        label = label || marks.label != nil
    }
}
