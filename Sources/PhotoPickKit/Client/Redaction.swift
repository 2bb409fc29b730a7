import Foundation

/// Keeps secrets out of logs and descriptions: the key, and the signing parts of signed URLs.
enum Redaction {
    /// Query parameters whose values are secrets or signatures.
    static let secretParameters: Set<String> = [
        "signature", "sig", "token", "key", "apikey", "api_key", "access_token", "x-amz-signature", "x-amz-credential",
        "x-amz-security-token", "x-goog-signature", "x-goog-credential",
    ]

    /// The URL with every secret query value replaced by `REDACTED`.
    static func url(_ url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems, !items.isEmpty
        else { return url.absoluteString }
        components.percentEncodedQueryItems = items.map { item in
            secretParameters.contains(item.name.lowercased()) ? URLQueryItem(name: item.name, value: "REDACTED") : item
        }
        return components.string ?? url.absoluteString
    }
}
