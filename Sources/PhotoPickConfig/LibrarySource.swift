import Foundation
import PhotoPickKit

/// Where the library comes from: the demo server on loopback, or the API with a key.
public enum LibrarySource: Sendable {
    /// No key anywhere: the demo library.
    case demo
    /// The API at a base URL, with where its key comes from.
    case api(URL, APIKeyProvider)

    /// The service's API when neither `--api-url` nor the config names another.
    public static let defaultAPIURL = URL(string: "https://api.photopick.cz/api/v1")!

    /// The key from `PHOTOPICK_API_KEY`, else the config's `api_key`, else its `api_key_file`; none
    /// means the demo library.
    public static func resolve(_ config: Config, apiURL: URL?, environment: [String: String]) throws(ConfigError) -> LibrarySource {
        let url = apiURL ?? config.apiURL ?? defaultAPIURL
        if let key = environment["PHOTOPICK_API_KEY"].map(APIKey.init), !key.secret.isEmpty {
            return .api(url, .fixed(key))
        }
        if let key = config.apiKey { return .api(url, .fixed(key)) }
        if let file = config.apiKeyFile {
            guard FileManager.default.isReadableFile(atPath: file.path) else {
                throw ConfigError(file: file.path, line: nil, key: nil, reason: "the api_key_file cannot be read; check the path and its permissions")
            }
            return .api(url, .file(file))
        }
        return .demo
    }

    /// Whether this is the demo library.
    public var isDemo: Bool {
        if case .demo = self { return true }
        return false
    }
}
