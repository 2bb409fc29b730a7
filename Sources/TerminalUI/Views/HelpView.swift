import PhotoBrowser
import PhotoPickSettings

/// The live key map, grouped, in a box over the list; it scrolls when the window is short.
struct HelpView: View {
    let context: ViewContext
    let scroll: Int
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let page = Self.page(helpLines(), in: rect)
        let inner = drawDialog(width: page.width, height: min(rect.height, page.rows.count + 3), title: "Keys", in: rect, into: &canvas)
        let visible = inner.height - 1
        let top = min(max(0, scroll), max(0, page.rows.count - visible))
        for (offset, row) in page.rows.dropFirst(top).prefix(visible).enumerated() {
            let y = inner.y + offset
            if row.isTitle {
                canvas.draw(row.text, x: inner.x + 1, y: y, style: theme.title.on(theme.overlay.background), limit: inner.width - 2)
                continue
            }
            if !row.keys.isEmpty {
                canvas.draw(row.keys, x: inner.x + 2, y: y, style: theme.label.on(theme.overlay.background), limit: inner.width - 3)
            }
            canvas.draw(row.text, x: inner.x + row.textX, y: y, style: theme.overlay, limit: inner.width - row.textX - 1)
        }
        let more = page.rows.count > visible ? "j/k scroll · " : ""
        drawDialogHint(more + "any other key closes", in: inner, into: &canvas)
    }

    /// The help laid out for a box: as wide as its longest line needs, up to the screen's width, with
    /// what does not fit wrapped onto further rows (never cut), and keys too long for their column on a
    /// row of their own.
    struct Page: Equatable {
        /// The box's width, border included.
        let width: Int
        let rows: [Row]

        struct Row: Equatable {
            var keys = ""
            var text: String
            /// Where the text starts, from the box's inner left edge.
            var textX = 1
            var isTitle = false
        }
    }

    /// The widest a keys column grows before longer keys get a row of their own.
    static let keysColumnLimit = 20

    static func page(_ lines: [HelpLine], in rect: Rect) -> Page {
        let keyWidths = lines.filter { !$0.keys.isEmpty }.map { DisplayWidth.of($0.keys) }
        let keysWidth = min(keysColumnLimit, keyWidths.max() ?? 0)
        let hint = DisplayWidth.of("j/k scroll · any other key closes") + 2
        // Inner columns each line needs on one row: a title from column 1, keys from 2 and the text two
        // columns after the keys column, with a blank column at the right.
        let textX = 2 + keysWidth + 2
        let needed = lines.map { line in
            line.keys.isEmpty ? 1 + DisplayWidth.of(line.summary) + 1 : textX + DisplayWidth.of(line.summary) + 1
        }.max() ?? 0
        let width = max(0, min(rect.width, max(needed, hint) + 2))
        let inner = width - 2
        // Narrower than a keys column and a readable text beside it: each text goes under its keys.
        let stacked = inner - textX - 1 < 16
        var rows: [Page.Row] = []
        for line in lines {
            if line.keys.isEmpty {
                rows += Formatting.wrap(line.summary, width: max(1, inner - 2), maxLines: .max).map { Page.Row(text: $0, isTitle: true) }
                continue
            }
            let ownRow = stacked || DisplayWidth.of(line.keys) > keysWidth
            let x = stacked ? 4 : textX
            var texts = Formatting.wrap(line.summary, width: max(1, inner - x - 1), maxLines: .max)
            if ownRow {
                rows += Formatting.wrap(line.keys, width: max(1, inner - 3), maxLines: .max).map { Page.Row(keys: $0, text: "", textX: x) }
            } else {
                rows.append(Page.Row(keys: line.keys, text: texts.isEmpty ? "" : texts.removeFirst(), textX: x))
            }
            rows += texts.map { Page.Row(text: $0, textX: x) }
        }
        return Page(width: width, rows: rows)
    }

    /// A line of the help: keys and what they do, or a section's title with no keys.
    struct HelpLine: Equatable {
        let keys: String
        let summary: String
    }

    /// Sections of the key map in force, as the help screen lists them.
    func helpLines() -> [HelpLine] {
        Self.helpLines(for: context.keymap)
    }

    /// Sections of a key map as the help screen lists them.
    static func helpLines(for keymap: Keymap) -> [HelpLine] {
        let sections: [(String, [Action])] = [
            ("Move", [.down, .up, .left, .right, .halfPageDown, .halfPageUp, .pageDown, .pageUp, .top, .bottom]),
            ("View", [.grid, .preview, .details]),
            ("Select", [.toggleSelection, .visualRange, .selectAll, .invert, .cancel]),
            ("Find", [.filter, .savedSearches, .tagFilter, .cycleSort]),
            ("Cull (marks are tags: Pick, Reject, 1–5 stars, Red…)", [.pick, .reject, .unflag, .cullMode]),
            ("In cull mode, each mark moves to the next photo", [.rate0, .rate1, .labelRed, .labelPurple]),
            ("Bursts", [.stackBursts, .openStack, .pickSharpest, .compare, .zoom]),
            ("Tag", [.tag1, .tagPicker, .manageTags, .undo]),
            ("Edit (sent like tags: saved first, u undoes)", [.edit, .bulkEdit, .purgeRejects, .copyID, .copyMenu]),
            ("Download", [.download, .chooseVariant, .queuePanel]),
            ("Download queue (in the panel)", [.queuePause, .queueRetry, .queueCancel, .concurrencyUp, .concurrencyDown, .clearFinished]),
            ("Other", [.reload, .help, .quit]),
        ]
        var lines: [HelpLine] = []
        for (title, actions) in sections {
            lines.append(HelpLine(keys: "", summary: title))
            for action in actions {
                if action == .openStack {
                    lines.append(HelpLine(keys: keymap.keyNames(action), summary: action.summary))
                    lines.append(HelpLine(keys: "×N", summary: "closed: keys act on the photo shown"))
                    continue
                }
                if action == .rate1 {
                    let numbers = [Action.rate1, .rate2, .rate3, .rate4, .rate5].map(keymap.hint).joined()
                    lines.append(HelpLine(keys: numbers == "12345" ? "1–5" : numbers, summary: "rate 1 to 5 stars"))
                    continue
                }
                if action == .labelRed {
                    let numbers = [Action.labelRed, .labelYellow, .labelGreen, .labelBlue].map(keymap.hint).joined()
                    lines.append(HelpLine(keys: numbers == "6789" ? "6–9" : numbers, summary: "label red/yellow/green/blue; again: off"))
                    continue
                }
                if action == .tag1 {
                    let numbers = Action.allCases.filter { $0.tagNumber != nil }.map(keymap.hint).joined()
                    lines.append(HelpLine(keys: numbers == "123456789" ? "1–9" : numbers, summary: "toggle tag 1–9 (as in the tag picker)"))
                    continue
                }
                lines.append(HelpLine(keys: keymap.keyNames(action), summary: action.summary))
            }
        }
        lines.append(HelpLine(keys: "ctrl-l", summary: "draw the screen again"))
        lines.append(HelpLine(keys: "ctrl-z", summary: "suspend; fg in the shell comes back"))
        lines.append(HelpLine(keys: "mouse", summary: "click moves, wheel scrolls, click a mark selects"))
        return lines
    }
}
