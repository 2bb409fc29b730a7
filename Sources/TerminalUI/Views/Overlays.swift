import PhotoBrowser

extension Screen {
    /// The live key map, grouped, in a box over the list; it scrolls when the window is short.
    func drawHelp(scroll: Int, in rect: Rect, into canvas: inout Canvas) {
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

    /// A picker in a box: the query when it takes one, then its entries with the cursor highlighted.
    func drawPicker(_ picker: UIState.Picker, _ state: BrowserState, in rect: Rect, into canvas: inout Canvas) {
        let entries = picker.entries(in: state)
        let title: String, hint: String
        switch picker.kind {
        case .tags:
            let targets = state.tagTargetCount
            title = "Tag \(targets == 1 ? "this photo" : "\(targets.formatted()) photos")"
            hint = "type to find · enter toggle · esc close"
        case .tagFilter:
            let mode: String = if case .all = state.list.filter.tags { "all of" } else { "any of" }
            title = "Show photos with \(mode) these tags"
            hint = "space/enter toggle · a any/all · x clear · esc close"
        case .variant:
            title = "Download which variant"
            hint = "enter choose · esc close"
        case .manageTags:
            title = "Manage tags"
            hint = "n new · r rename · c colour · x delete · esc close"
        case .savedSearches:
            title = "Saved searches"
            hint = "1–9 or enter filter · esc close"
        }
        let height = min(rect.height, max(entries.count, 1) + (picker.takesQuery ? 5 : 3))
        let background = theme.overlay.background
        let inner = drawDialog(width: min(rect.width, 60), height: height, title: title, in: rect, into: &canvas)
        guard inner.height >= 2 else { return }
        var y = inner.y
        if picker.takesQuery {
            canvas.drawField("> ", picker.query.text, x: inner.x + 1, y: y, style: theme.input.on(background), width: inner.width - 2)
            y += 2
        }
        let visible = inner.maxY - 1 - y
        if entries.isEmpty {
            let empty = switch picker.kind {
            case .tags: "No tags yet: type a name to create one."
            case .savedSearches: "None yet: add a [searches] table to the config file."
            default: "No tags yet."
            }
            canvas.draw(empty, x: inner.x + 1, y: y, style: theme.dim.on(background), limit: inner.width - 2)
        }
        let cursor = min(picker.cursor, max(0, entries.count - 1))
        let top = max(0, min(cursor - visible + 1, entries.count - visible))
        for (offset, entry) in entries.dropFirst(top).prefix(max(0, visible)).enumerated() {
            let current = top + offset == cursor
            let row = Rect(x: inner.x, y: y + offset, width: inner.width, height: 1)
            let base = current ? theme.currentRow : theme.overlay
            canvas.fill(row, style: base)
            var x = row.x + 1
            if !entry.mark.isEmpty { x += canvas.draw(entry.mark + " ", x: x, y: row.y, style: base) }
            if case .tag = entry.choice {
                let dot = theme.depth == .monochrome ? "" : "● "
                x += canvas.draw(dot, x: x, y: row.y, style: Style(foreground: theme.tagColor(entry.color), background: base.background))
            }
            // The title comes first; the detail shows only where it fits whole.
            let room = row.maxX - 1 - x - DisplayWidth.of(entry.title) - 2
            let detailWidth = DisplayWidth.of(entry.detail) <= room ? DisplayWidth.of(entry.detail) : 0
            x += canvas.draw(entry.title, x: x, y: row.y, style: base, limit: row.maxX - 1 - x)
            if detailWidth > 0 {
                canvas.drawRight(entry.detail, maxX: row.maxX - 1, y: row.y, style: current ? base : theme.dim.on(background), limit: detailWidth)
            }
        }
        drawDialogHint(hint, in: inner, into: &canvas)
    }

    /// A question: a typed answer, or y/n.
    func drawPrompt(_ prompt: UIState.Prompt, _ state: BrowserState, in rect: Rect, into canvas: inout Canvas) {
        let tagName: (Int) -> String = { id in state.tags.tag(id: id).map { TerminalText.sanitized($0.name) } ?? "this tag" }
        let question: String
        switch prompt.purpose {
        case .newTag: question = "Name of the new tag:"
        case .renameTag(let id): question = "New name for “\(tagName(id))”:"
        case .recolourTag(let id): question = "Colour of “\(tagName(id))” as #rrggbb (empty for none):"
        case .deleteTag(let id):
            let count = state.tags.count(of: id)
            question = "Delete the tag “\(tagName(id))” from \(UIState.Picker.photoCount(count)) and from PhotoPick?"
        case .pickSharpest(let plan):
            question = Self.sharpestQuestion(plan)
        }
        let background = theme.overlay.background
        let inner = drawDialog(width: min(rect.width, 64), height: prompt.problem == nil ? 5 : 6, in: rect, into: &canvas)
        // A yes/no question has the answer line's row too.
        let lines = Formatting.wrap(question, width: inner.width - 2, maxLines: prompt.isConfirmation ? 2 : 1)
        for (offset, line) in lines.enumerated() {
            canvas.draw(line, x: inner.x + 1, y: inner.y + offset, style: theme.title.on(background), limit: inner.width - 2)
        }
        if prompt.isConfirmation {
            let answers = if case .pickSharpest = prompt.purpose { "y pick · n leave them" } else { "y delete · n keep" }
            canvas.draw(answers, x: inner.x + 1, y: inner.y + 2, style: theme.hint.on(background), limit: inner.width - 2)
        } else {
            canvas.drawField("", prompt.field.text, x: inner.x + 1, y: inner.y + 1, style: theme.input.on(background), width: inner.width - 2)
            canvas.draw("enter save · esc cancel", x: inner.x + 1, y: inner.y + 2, style: theme.hint.on(background), limit: inner.width - 2)
        }
        if let problem = prompt.problem {
            canvas.draw(problem, x: inner.x + 1, y: inner.y + 3, style: theme.warning.on(background), limit: inner.width - 2)
        }
    }

    /// The question before picking the sharpest frames: how many will be picked, and what is left out.
    static func sharpestQuestion(_ plan: SharpestFrames) -> String {
        let picking = plan.winners.count - plan.alreadyPicked
        var question = "Pick the sharpest frame of \(picking) burst\(picking == 1 ? "" : "s")?"
        if plan.alreadyPicked > 0 { question += " \(plan.alreadyPicked) already picked." }
        if plan.partlyMeasured > 0 { question += " \(plan.partlyMeasured) not fully measured." }
        if plan.unmeasured > 0 { question += " \(plan.unmeasured) not measured: skipped." }
        return question
    }

    /// Asked on quit while downloads run or tag edits are unsent.
    func drawConfirmQuit(_ state: BrowserState, in rect: Rect, into canvas: inout Canvas) {
        var work: [String] = []
        let pending = state.downloads.totals.pending
        if pending > 0 { work.append("\(pending) download\(pending == 1 ? " is" : "s are") not finished") }
        let unsent = state.unsentTagDeltas
        if unsent > 0 {
            work.append("\(unsent) tag edit\(unsent == 1 ? " is" : "s are") not sent yet")
        }
        let text = work.isEmpty
            ? "Everything has finished meanwhile; nothing is left for next time."
            : work.joined(separator: " and ") + ". Both resume the next time photopick starts."
        let inner = drawDialog(width: min(rect.width, 60), height: 7, title: "Quit?", in: rect, into: &canvas)
        for (offset, line) in Formatting.wrap(text, width: inner.width - 2, maxLines: max(1, inner.height - 2)).enumerated() {
            canvas.draw(line, x: inner.x + 1, y: inner.y + offset, style: theme.overlay)
        }
        drawDialogHint("y quit · n stay", in: inner, into: &canvas)
    }

    /// A dialog box centred in `rect`: filled in the overlay style, outlined, with an optional title
    /// on its top edge. Returns the rectangle inside the outline.
    private func drawDialog(width: Int, height: Int, title: String? = nil, in rect: Rect, into canvas: inout Canvas) -> Rect {
        let box = rect.centred(width: width, height: height)
        let background = theme.overlay.background
        canvas.fill(box, style: theme.overlay)
        canvas.coverImages(box)
        canvas.drawBox(box, style: theme.border.on(background), title: title, titleStyle: theme.title.on(background))
        return box.inset(1)
    }

    /// The key hint on the last row inside a dialog.
    private func drawDialogHint(_ hint: String, in inner: Rect, into canvas: inout Canvas) {
        canvas.draw(hint, x: inner.x + 1, y: inner.maxY - 1, style: theme.hint.on(theme.overlay.background), limit: inner.width - 2)
    }
}
