import PhotoPickFormats

extension APIError {
    /// One line that says what went wrong and what to do.
    public var userMessage: String {
        switch self {
        case .response(let response): response.userMessage
        case .transport(let host, let reason): "Cannot reach \(host) (\(reason.oneLine)); check the network connection and try again."
        case .timeout(let host, let after):
            "\(host) did not answer within \(Self.text(after)); check the connection and try again."
        case .decoding(let failure):
            "The server's answer could not be read (at \(failure.path): \(failure.reason.oneLine)); update photopick, "
                + "or report it\(failure.requestID.map { " quoting request id \($0)" } ?? "")."
        case .cancelled: "Cancelled."
        }
    }
}

extension APIError {
    /// `300 ms` or `30 s`, the same in every locale.
    static func text(_ duration: Duration) -> String {
        let milliseconds = duration.milliseconds
        return Figures.elapsed(milliseconds: Int(milliseconds))
    }
}

extension ErrorResponse {
    /// One line that says what happened and what to do.
    public var userMessage: String {
        let quote = requestID.map { " (request id \($0.oneLine))" } ?? ""
        let message = self.message.oneLine
        switch code {
        case .validationFailed:
            return "The server rejected the request: \(message)\(issueSummary); check the values and try again."
        case .invalidCursor:
            return "The listing position expired or is invalid; reload to start the listing again."
        case .unauthorized:
            return "The API key was refused (missing, unknown or deleted); set PHOTOPICK_API_KEY to a key made in Settings → API keys."
        case .scopeRequired:
            let scope = details?["scope"]?.stringValue.map { "the \($0.oneLine) scope" } ?? "a scope this needs"
            return "This API key lacks \(scope); make a key with it in Settings → API keys."
        case .ipNotWhitelisted:
            return "This API key does not accept requests from this IP address; add it to the key's allow-list in Settings → API keys, or use another key."
        case .tariffNotSupported:
            return "Your PhotoPick plan does not include this feature (\(message)); choose another option or upgrade the plan."
        case .notFound:
            return "Not found: it was deleted or belongs to another account; reload to refresh the list."
        case .conflict:
            return "Conflict: \(message); choose another name or reload."
        case .payloadTooLarge:
            return "The request is too large for the server (\(message)); send less at once."
        case .unsupportedMedia:
            return "The server refused the request's format (\(message)); this is a photopick bug, please report it\(quote)."
        case .rateLimited:
            return "The API rate limit is used up; photopick waits for the next window, try again in a minute."
        case .internalError:
            return "The PhotoPick server failed (\(message)); try again later, and quote the request id if it persists\(quote)."
        case .urlExpired, .invalidSignature:
            return "The download link is no longer valid (\(message)); start the download again."
        default:
            return "The server answered \(status) \(code.rawValue.oneLine): \(message)\(quote)."
        }
    }

    /// `; limit: must be 1...100`, from `details.issues` when the server lists per-field problems.
    private var issueSummary: String {
        guard case .array(let issues)? = details?["issues"] else { return "" }
        let parts = issues.compactMap { issue -> String? in
            guard let message = issue["message"]?.stringValue else { return nil }
            return issue["field"]?.stringValue.map { "\($0.oneLine): \(message.oneLine)" } ?? message.oneLine
        }
        // What the message already says is not said twice.
        let new = parts.filter { !message.oneLine.contains($0) }
        return new.isEmpty ? "" : " (" + new.joined(separator: "; ") + ")"
    }
}
