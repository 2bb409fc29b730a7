import PhotoBrowser

/// Bracketed paste: the text goes into the field that has focus (the filter, the tag picker's query, a
/// prompt's answer) as one line, and anywhere else it is ignored with a word, never run as keys.
enum PasteInput {
    static func handle(_ text: String, _ context: inout InputContext) {
        let line = oneLine(text)
        if var field = context.ui.filterField {
            guard field.insert(line) else { return }
            context.ui.filterField = field
            return context.send(.browsing(.filterTextChanged(field.text)))
        }
        switch context.ui.overlay {
        case .picker(var picker) where picker.takesQuery:
            if picker.query.insert(line) { picker.cursor = 0 }
            context.ui.overlay = .picker(picker)
        case .editForm(var form):
            if form.values[form.focused]?.insert(line) == true {
                form.problem = nil
                form.touched.insert(form.focused)
            }
            context.ui.overlay = .editForm(form)
        case .prompt(var prompt) where !prompt.isConfirmation:
            if prompt.field.insert(line) { prompt.problem = nil }
            context.ui.overlay = .prompt(prompt)
        default:
            let filter = context.keymap.hint(.filter), picker = context.keymap.hint(.tagPicker)
            context.send(.status(.noticePosted(.info, "Paste ignored: only the filter (\(filter)), the tag picker (\(picker)) and prompts take pasted text")))
        }
    }

    /// The pasted text as one line: line breaks and tabs become spaces, other control characters go.
    static func oneLine(_ text: String) -> String {
        var line = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D: if !line.hasSuffix(" ") { line.unicodeScalars.append(" ") }
            case 0x00..<0x20, 0x7F..<0xA0: continue
            default: line.unicodeScalars.append(scalar)
            }
        }
        return line
    }
}
