import Foundation

/// One `--jsonl` event of `edit` and `rm`: keys sorted, slashes kept, text escaped as JSON escapes it.
enum JSONLine {
    /// The object as one line of JSON.
    static func text(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
