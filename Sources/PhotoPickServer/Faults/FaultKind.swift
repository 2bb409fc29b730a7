import Foundation

/// A failure the server can inject, for testing a client's resilience.
public enum FaultKind: String, CaseIterable, Sendable {
    /// 500 internal_error with X-Request-Id.
    case internalError = "500"
    /// 503 with Retry-After.
    case unavailable = "503"
    /// 429 rate_limited with Retry-After.
    case rateLimited = "429"
    /// The connection closes before any response.
    case reset
    /// A file body stops partway through.
    case truncate
    /// A stall of the configured latency before answering.
    case slow

    /// Parses a comma-separated list such as `500,reset,truncate`.
    public static func parseList(_ text: String) throws(ServerError) -> Set<FaultKind> {
        var kinds = Set<FaultKind>()
        for name in text.split(separator: ",") {
            guard let kind = FaultKind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                let known = allCases.map(\.rawValue).joined(separator: ",")
                throw .invalidOption("--faults: unknown fault '\(name)'; choose from \(known)")
            }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { throw .invalidOption("--faults: name at least one fault, e.g. --faults 500,reset") }
        return kinds
    }
}
