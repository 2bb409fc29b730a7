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
    /// One line, already sanitised for a terminal.
    public let text: String
}

/// The messages on show: errors until dismissed, the rest until they expire.
public struct StatusMessages: Sendable, Equatable {
    /// Oldest first.
    public private(set) var all: [StatusMessage] = []
    private var nextID = 1

    /// What the status line shows: the newest error while any is pending, else the newest message.
    public var current: StatusMessage? {
        all.last { $0.severity == .error } ?? all.last
    }

    /// Adds a message and returns it, so the caller can schedule its expiry; nil when it repeats the one on show.
    mutating func post(_ severity: StatusMessage.Severity, _ text: String) -> StatusMessage? {
        let text = TerminalText.sanitized(text)
        if let current, current.severity == severity, current.text == text { return nil }
        let message = StatusMessage(id: nextID, severity: severity, text: text)
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
