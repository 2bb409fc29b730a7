import PhotoBrowser

/// The live key map, grouped, in a box over the list; it scrolls when the window is short.
struct HelpView: View {
    let context: ViewContext
    let scroll: Int
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let lines = helpLines()
        let inner = drawDialog(width: min(rect.width, 64), height: min(rect.height, lines.count + 3), title: "Keys", in: rect, into: &canvas)
        let visible = inner.height - 1
        let top = min(max(0, scroll), max(0, lines.count - visible))
        for (offset, line) in lines.dropFirst(top).prefix(visible).enumerated() {
            let y = inner.y + offset
            if line.keys.isEmpty {
                canvas.draw(line.summary, x: inner.x + 1, y: y, style: theme.title.on(theme.overlay.background), limit: inner.width - 2)
            } else {
                canvas.draw(line.keys, x: inner.x + 2, y: y, style: theme.label.on(theme.overlay.background), limit: 18)
                canvas.draw(line.summary, x: inner.x + 21, y: y, style: theme.overlay, limit: inner.width - 22)
            }
        }
        let more = lines.count > visible ? "j/k scroll · " : ""
        drawDialogHint(more + "any other key closes", in: inner, into: &canvas)
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
        lines.append(HelpLine(keys: "ctrl-z", summary: "suspend; fg in the shell comes back"))
        lines.append(HelpLine(keys: "mouse", summary: "click moves, wheel scrolls, click a mark selects"))
        return lines
    }
}
