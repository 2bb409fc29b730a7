/// A line for the status bar. Information and warnings fade after a few seconds; errors stay until dismissed.
public struct StatusMessage: Sendable, Equatable, Identifiable {
    /// How much it matters.
    public enum Severity: Sendable {
        case info, warning, error
    }

    /// Unique within a session.
    public let id: Int
    /// How much it matters.
    public let severity: Severity
    /// One line, already sanitised for a terminal. It names no key: the front end adds the remedy with
    /// the key bound to it.
    public let text: String
    /// What the user can do about it, if anything.
    public let remedy: Remedy?

    /// Something the user can do about a message, named by what it does, so that the front end can
    /// show the key bound to it now.
    public enum Remedy: Sendable, Equatable {
        /// Resume the photo listing.
        case resumeLoading
        /// Open the tag picker to choose or create a tag.
        case pickTag
        /// Retry a failed download from the queue.
        case retryDownload
    }
}

/// The messages on show: errors until dismissed, the rest until they expire.
package struct StatusMessages: Sendable, Equatable {
    /// Oldest first.
    private(set) var all: [StatusMessage] = []
    private var nextID = 1

    /// What the status line shows: the newest error while any is pending, else the newest message.
    package var current: StatusMessage? {
        all.last { $0.severity == .error } ?? all.last
    }

    /// Adds a message and returns it, so the caller can schedule its expiry; nil when it repeats the one on show.
    mutating func post(_ severity: StatusMessage.Severity, _ text: String, remedy: StatusMessage.Remedy? = nil) -> StatusMessage? {
        let text = TerminalText.sanitized(text)
        if let current, current.severity == severity, current.text == text, current.remedy == remedy { return nil }
        let message = StatusMessage(id: nextID, severity: severity, text: text, remedy: remedy)
        nextID += 1
        all.append(message)
        if all.count > 50 { all.removeFirst(all.count - 50) }
        return message
    }

    /// Removes a message that expired; errors never expire.
    mutating func expire(_ id: Int) {
        all.removeAll { $0.id == id && $0.severity != .error }
    }

    /// Removes the message the status line shows.
    mutating func dismissCurrent() {
        guard let current else { return }
        all.removeAll { $0.id == current.id }
    }
}
