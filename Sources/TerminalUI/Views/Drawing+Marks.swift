import PhotoBrowser
import PhotoPickKit

/// Marks and stack badges, as the list, the grid, compare and the metadata draw them.
extension Drawing {
    /// A photo's marks from `x`: the flag (⚑ pick, ✕ reject), its stars, then its label as a dot in
    /// the label's colour. Monochrome keeps the shapes and spells what colour would say: `P`/`X`
    /// flags and the label's initial. Returns the columns drawn; with `slots` each part is padded to
    /// its slot so rows line up.
    @discardableResult
    func drawMarks(_ marks: PhotoMarks, x: Int, y: Int, base: Style, slots: MarkSlots? = nil, limit: Int = 16, into canvas: inout Canvas) -> Int {
        guard !marks.isEmpty || slots != nil else { return 0 }
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
        case nil: if slots?.flag == true { cells.append((" ", base)) }
        }
        for _ in 0..<marks.rating { cells.append(("★", style(.rating(marks.rating)))) }
        if let slots { cells += Array(repeating: (" ", base), count: max(0, slots.stars - marks.rating)) }
        if let label = marks.label {
            cells.append((monochrome ? String(label.rawValue.prefix(1)) : "●", style(.label(label))))
        } else if slots?.label == true {
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

    /// `×5` for a closed stack of five, then `RAW+JPG` for a closed RAW+JPEG pair (`RAW` or `JPG` for a
    /// file of an open one), in the dim style.
    func stackBadge(_ count: Int?, pair: String? = nil) -> String? {
        let parts = [count.map { "×\($0)" }, pair].compactMap { $0 }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
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
