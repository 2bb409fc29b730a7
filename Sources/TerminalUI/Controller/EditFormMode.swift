import PhotoBrowser
import PhotoPickSettings

/// `E`: Tab and the arrows move between the fields, typing edits the one in focus, Enter applies
/// what changed, Esc leaves everything as it was.
enum EditFormMode: KeyMode {
    static func handle(_ key: Key, _ context: inout InputContext) {
        guard case .editForm(var form) = context.ui.overlay else { return }
        let count = EditForm.fields.count
        switch key {
        case .escape:
            return context.ui.overlay = nil
        case .tab, .down:
            form.focus = (form.focus + 1) % count
        case .backTab, .up:
            form.focus = (form.focus + count - 1) % count
        case .enter:
            do {
                let request = try form.request()
                let changes = try context.state.changes(for: request, photoIDs: form.photoIDs)
                context.ui.overlay = nil
                if request.isEmpty || changes.isEmpty {
                    return context.send(.status(.noticePosted(.info, "Nothing changed.")))
                }
                return context.send(.edits(.photosEdited(changes)))
            } catch {
                form.problem = error.description
            }
        default:
            if form.values[form.focused]?.edit(key) == true {
                form.problem = nil
                form.touched.insert(form.focused)
            }
        }
        context.ui.overlay = .editForm(form)
    }

    /// Opens the form on the selection, or the photo under the cursor.
    static func open(_ context: inout InputContext) {
        let state = context.state
        let targets = state.selection.isEmpty
            ? state.list.currentIndex.map { [$0] } ?? []
            : state.list.libraryIndices.filter(state.selection.contains)
        guard !targets.isEmpty else { return context.send(.status(.noticePosted(.info, "No photo to edit."))) }
        if let reason = state.account.disabledReason(.editing) { return context.send(.status(.noticePosted(.warning, reason))) }
        context.ui.overlay = .editForm(EditForm(photoIDs: targets.map { state.library.id(at: $0) }, state: state))
    }
}
