import Foundation

extension Request {
    /// A `curl` command that repeats this request. The key appears as `$PHOTOPICK_API_KEY`, never itself,
    /// and signed query parameters are redacted.
    public func curlDescription(baseURL: URL) -> String {
        var parts = ["curl", "-X", method.rawValue, Self.quoted(Redaction.url(url(relativeTo: baseURL)))]
        // Double quotes, so the shell fills in the key from the environment.
        parts += ["-H", "\"Authorization: Bearer $PHOTOPICK_API_KEY\""]
        if let body {
            parts += ["-H", Self.quoted("Content-Type: application/json"), "--data", Self.quoted(String(decoding: body, as: UTF8.self))]
        }
        return parts.joined(separator: " ")
    }

    /// Single-quoted for a POSIX shell.
    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
