/// An error that can explain itself to a person in one line that says what to do.
public protocol UserFacingError: Error {
    /// One line, for the status bar or stderr: what happened and what to do about it.
    var userMessage: String { get }
}

extension String {
    /// The text on one line: control and format characters (so escape sequences too) and runs of white
    /// space become single spaces, and the ends are trimmed.
    var oneLine: String {
        var result = ""
        var pendingSpace = false
        for scalar in unicodeScalars {
            let category = scalar.properties.generalCategory
            if category == .control || category == .format || scalar.properties.isWhitespace {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace { result += " " }
            pendingSpace = false
            result.unicodeScalars.append(scalar)
        }
        return result
    }
}
