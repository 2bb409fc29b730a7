import Foundation
import PhotoBrowser
import PhotoPickKit
import PhotoPickSettings

/// `T`: the tags, with letters to create (`n`), rename (`r`), recolour (`c`) and delete (`x`, `d`,
/// Delete) them; each opens a prompt.
enum TagManagerMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard case .picker(var picker) = context.ui.overlay else { return }
        guard let entry = PickerMode.moveCursor(key, &picker, context) else { return context.ui.overlay = .picker(picker) }
        if key == .escape || context.action(key) == .quit { return context.ui.overlay = nil }
        let tag: Int? = if case .tag(let id)? = entry?.choice { id } else { nil }
        let tags = context.state.tags
        switch (key, tag) {
        case (.character("n"), _): context.ui.overlay = .prompt(UIState.Prompt(.newTag))
        case (.character("r"), let id?): context.ui.overlay = .prompt(UIState.Prompt(.renameTag(id: id), text: tags.tag(id: id)?.name ?? ""))
        case (.character("c"), let id?): context.ui.overlay = .prompt(UIState.Prompt(.recolourTag(id: id), text: tags.tag(id: id)?.color ?? ""))
        case (.character("x"), let id?), (.character("d"), let id?), (.delete, let id?): context.ui.overlay = .prompt(UIState.Prompt(.deleteTag(id: id)))
        default: context.ui.overlay = .picker(picker)
        }
    }
}

/// A question the tag manager asks: a name, a colour, or yes/no to a deletion. It returns to the
/// manager when answered or left.
enum TagPromptMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard case .prompt(var prompt) = context.ui.overlay else { return }
        let manager = UIState.Overlay.picker(UIState.Picker(kind: .manageTags))
        if case .applyBulkEdit(let changes, _, let file) = prompt.purpose {
            switch key {
            case .character("y"), .character("Y"):
                context.ui.overlay = nil
                context.send(.edits(.photosEdited(changes)))
                context.outcome.finishedBulkEdit = file
            case .character("n"), .character("N"), .escape:
                context.ui.overlay = nil
                context.send(.status(.noticePosted(.info, "Nothing was changed.")))
                context.outcome.finishedBulkEdit = file
            default: break
            }
            return
        }
        if case .purge(let ids, _) = prompt.purpose {
            switch key {
            case .escape:
                context.ui.overlay = nil
                context.send(.status(.noticePosted(.info, "Nothing was deleted.")))
            case .enter:
                guard prompt.field.text.trimmingCharacters(in: .whitespaces) == String(ids.count) else {
                    prompt.problem = "Type \(ids.count) to delete, or esc to keep \(ids.count == 1 ? "it" : "them")."
                    return context.ui.overlay = .prompt(prompt)
                }
                context.ui.overlay = nil
                context.send(.purge(.purgeRequested(ids, keepOriginals: context.state.keepOriginals)))
            default:
                if prompt.field.edit(key) { prompt.problem = nil }
                context.ui.overlay = .prompt(prompt)
            }
            return
        }
        if case .pickSharpest = prompt.purpose {
            switch key {
            case .character("y"), .character("Y"):
                context.ui.overlay = nil
                context.send(.focus(.sharpestFramesPicked))
            case .character("n"), .character("N"), .escape: context.ui.overlay = nil
            default: break
            }
            return
        }
        if case .deleteTag(let id) = prompt.purpose {
            switch key {
            case .character("y"), .character("Y"):
                context.ui.overlay = manager
                context.send(.tags(.tagDeletionRequested(tagID: id)))
            case .character("n"), .character("N"), .escape: context.ui.overlay = manager
            default: break
            }
            return
        }
        switch key {
        case .escape: context.ui.overlay = manager
        case .enter:
            switch answer(prompt) {
            case .success(let event):
                context.ui.overlay = manager
                if let event { context.send(event) }
            case .failure(let problem):
                prompt.problem = problem.reason
                context.ui.overlay = .prompt(prompt)
            }
        default:
            if prompt.field.edit(key) { prompt.problem = nil }
            context.ui.overlay = .prompt(prompt)
        }
    }

    /// Why a typed answer is refused, shown under the question.
    struct Problem: Error {
        let reason: String
    }

    /// The event a typed answer asks for, or why it is refused.
    private static func answer(_ prompt: UIState.Prompt) -> Result<BrowserEvent?, Problem> {
        let text = prompt.field.text.trimmingCharacters(in: .whitespaces)
        switch prompt.purpose {
        case .newTag, .renameTag:
            guard !text.isEmpty else { return .failure(Problem(reason: "A tag needs a name.")) }
            if case .renameTag(let id) = prompt.purpose { return .success(.tags(.tagRenameRequested(tagID: id, name: text))) }
            return .success(.tags(.tagCreationRequested(name: text, color: nil)))
        case .recolourTag(let id):
            if text.isEmpty { return .success(.tags(.tagRecolourRequested(tagID: id, color: nil))) }
            guard let color = TagColor(hex: text) else {
                return .failure(Problem(reason: "Write the colour as #rrggbb, like #e94b60, or leave it empty."))
            }
            return .success(.tags(.tagRecolourRequested(tagID: id, color: color.hex)))
        case .deleteTag, .pickSharpest, .purge, .applyBulkEdit: return .success(nil)
        }
    }
}
