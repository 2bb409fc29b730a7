import Foundation
import PhotoBrowser
import PhotoPickFormats

/// A question in a box: a typed answer, or y/n.
struct PromptView: View {
    let context: ViewContext
    let prompt: UIState.Prompt
    let state: BrowserState
    let rect: Rect

    func draw(in canvas: inout Canvas) {
        let tagName: (Int) -> String = { id in state.tags.tag(id: id).map { TerminalText.sanitized($0.name) } ?? "this tag" }
        let question: String
        switch prompt.purpose {
        case .newTag: question = "Name of the new tag:"
        case .renameTag(let id): question = "New name for “\(tagName(id))”:"
        case .recolourTag(let id): question = "Colour of “\(tagName(id))” as #rrggbb (empty for none):"
        case .deleteTag(let id):
            let count = state.library.count(ofTag: id)
            question = "Delete the tag “\(tagName(id))” from \(UIState.Picker.photoCount(count)) and from PhotoPick?"
        case .pickSharpest(let plan):
            question = Self.sharpestQuestion(plan)
        case .purge(let ids, let bytes):
            let size = Figures.bytes(bytes)
            let kept = state.keepOriginals.map { " Originals are kept in \(TerminalText.sanitized($0.path)) first." } ?? ""
            question = "Delete \(ids.count) rejected photo\(ids.count == 1 ? "" : "s") (\(size)) from the server? This cannot be undone.\(kept) Type \(ids.count) to confirm:"
        case .applyBulkEdit(_, let summary, _):
            question = "Apply the editor's changes: \(summary)?"
        }
        let background = theme.overlay.background
        // A purge's question is long: it gets the lines it needs above the answer.
        let width = min(rect.width, 64)
        let maxLines = if case .purge = prompt.purpose { 4 } else { prompt.isConfirmation ? 2 : 1 }
        let lines = Formatting.wrap(question, width: max(1, width - 4), maxLines: maxLines)
        let extra = prompt.isConfirmation ? 0 : max(0, lines.count - 1)
        let inner = drawDialog(width: width, height: (prompt.problem == nil ? 5 : 6) + extra, in: rect, into: &canvas)
        for (offset, line) in lines.enumerated() {
            canvas.draw(line, x: inner.x + 1, y: inner.y + offset, style: theme.title.on(background), limit: inner.width - 2)
        }
        if prompt.isConfirmation {
            let answers = switch prompt.purpose {
            case .pickSharpest: "y pick · n leave them"
            case .applyBulkEdit: "y apply · n discard"
            default: "y delete · n keep"
            }
            canvas.draw(answers, x: inner.x + 1, y: inner.y + 2, style: theme.hint.on(background), limit: inner.width - 2)
        } else {
            canvas.drawField("", prompt.field.text, x: inner.x + 1, y: inner.y + 1 + extra, style: theme.input.on(background), width: inner.width - 2)
            let hint = if case .purge = prompt.purpose { "enter delete · esc keep them" } else { "enter save · esc cancel" }
            canvas.draw(hint, x: inner.x + 1, y: inner.y + 2 + extra, style: theme.hint.on(background), limit: inner.width - 2)
        }
        if let problem = prompt.problem {
            canvas.draw(problem, x: inner.x + 1, y: inner.y + 3 + extra, style: theme.warning.on(background), limit: inner.width - 2)
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
}
