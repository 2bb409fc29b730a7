import Foundation

/// An API key. It never prints itself: descriptions and dumps show only a redacted form.
public struct APIKey: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The secret, for the `Authorization` header and nothing else.
    public let secret: String

    /// A key from its secret; surrounding whitespace and newlines are dropped.
    public init(_ secret: String) {
        self.secret = secret.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `pp_live_…` (the prefix only), safe for logs.
    public var description: String {
        let prefix = ["pp_live_", "pp_test_"].first { secret.hasPrefix($0) } ?? ""
        return prefix + "…(redacted)"
    }

    /// The same redacted form as `description`.
    public var debugDescription: String { description }
}

/// Where the client gets its key, asked before each request so a rotated key takes effect at once.
public struct APIKeyProvider: Sendable {
    let key: @Sendable () async throws -> APIKey?

    /// A provider from any closure; returning nil sends no `Authorization`.
    public init(_ key: @escaping @Sendable () async throws -> APIKey?) {
        self.key = key
    }

    /// Always this key.
    public static func fixed(_ key: APIKey) -> APIKeyProvider {
        APIKeyProvider { key }
    }

    /// The key in an environment variable, such as `PHOTOPICK_API_KEY`.
    public static func environment(_ name: String) -> APIKeyProvider {
        APIKeyProvider { ProcessInfo.processInfo.environment[name].map(APIKey.init).flatMap { $0.secret.isEmpty ? nil : $0 } }
    }

    /// The first line of a file (read on each request, so the file can change).
    public static func file(_ url: URL) -> APIKeyProvider {
        APIKeyProvider {
            let text = try String(contentsOf: url, encoding: .utf8)
            let key = APIKey(text.split(whereSeparator: \.isNewline).first.map(String.init) ?? "")
            return key.secret.isEmpty ? nil : key
        }
    }
}
