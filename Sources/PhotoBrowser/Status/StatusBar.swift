import PhotoPickKit

/// What the front end asks of the status line.
public enum StatusEvent: Sendable {
    case messageDismissed
    /// Something the front end wants on the status line, such as a warning about the config file.
    case noticePosted(StatusMessage.Severity, String)
}

/// What the timers, the state database, `/me` and the pacer report: only the session sends these.
package enum StatusReport: Sendable {
    case messageExpired(id: Int)
    /// The state database refused a write; the reason is a line for the user.
    case stateNotSaved(String)
    case accountLoaded(Me)
    case accountFailed(String)
    case rateLimitChanged(RateLimitState)
}

/// The status bar: the key's name, scopes and rate limit, and the messages' comings and goings. A room
/// of its own because every feature asks it what the key may do, and only `/me` and the pacer change that.
struct StatusBar: Sendable {
    /// The key's name, scopes and rate limit.
    private(set) var account = AccountStatus()

    mutating func reduce(_ event: StatusEvent, _ shared: inout Shared) -> [BrowserEffect] {
        switch event {
        case .messageDismissed:
            shared.messages.dismissCurrent()
            return []
        case .noticePosted(let severity, let text): return shared.post(severity, text)
        }
    }

    mutating func receive(_ report: StatusReport, _ shared: inout Shared) -> [BrowserEffect] {
        switch report {
        case .messageExpired(let id):
            shared.messages.expire(id)
            return []
        case .stateNotSaved(let reason): return shared.post(.error, reason)
        case .accountLoaded(let me):
            account.update(with: me)
            if let reason = account.disabledReason(.tagging) { return shared.post(.warning, reason) }
            return []
        case .accountFailed(let reason): return shared.post(.warning, "Could not read the key's scopes: \(reason)")
        case .rateLimitChanged(let limit):
            account.rateLimit = limit
            return []
        }
    }
}
