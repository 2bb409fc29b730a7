import Foundation
import PhotoPickKit

/// What the key may do, from `GET /me`, and why a feature is off when it is.
public struct AccountStatus: Sendable, Equatable {
    /// The key's name, once known.
    public private(set) var keyName: String?
    /// The key's scopes; nil until `/me` answers, and while unknown nothing is disabled.
    private(set) var scopes: Set<Scope>?
    /// The request budget `/me` reported, and the pacer's view of it since.
    public var rateLimit: RateLimitState?

    /// Nothing known yet: every feature is allowed until `/me` says otherwise.
    init() {}

    /// The status a key's `/me` answer gives.
    package init(_ me: Me) {
        update(with: me)
    }

    /// Takes the key's name, scopes and budget from `/me`.
    mutating func update(with me: Me) {
        keyName = me.name
        scopes = Set(me.scopes)
        // The pacer reports every response's budget; /me only fills the indicator if none has come yet.
        rateLimit = rateLimit ?? RateLimitState(
            limit: me.rateLimit.limit, remaining: me.rateLimit.remaining,
            reset: Date(timeIntervalSince1970: TimeInterval(me.rateLimit.reset))
        )
    }

    /// Why `feature` is unavailable, as a line for the status bar; nil when it is available.
    public func disabledReason(_ feature: Feature) -> String? {
        guard let scopes else { return nil }
        let missing = feature.scopes.filter { !scopes.contains($0) }
        guard let scope = missing.first else { return nil }
        return "\(feature.description): this key lacks the \(scope) scope; add it in Settings → API keys on photopick.cz, or use another key."
    }

    /// Whether `feature` is available.
    func allows(_ feature: Feature) -> Bool { disabledReason(feature) == nil }

    /// Things photopick does that need a scope.
    public enum Feature: Sendable {
        case browsing, tagging, tagManagement, downloading, editing, purging

        var scopes: [Scope] {
            switch self {
            case .browsing: [.photosRead]
            case .tagging: [.photosWrite]
            case .tagManagement: [.tagsWrite]
            case .downloading: [.photosRead]
            case .editing: [.photosWrite]
            case .purging: [.photosDelete]
            }
        }

        var description: String {
            switch self {
            case .browsing: "Browsing is unavailable"
            case .tagging: "Tagging is read-only"
            case .tagManagement: "Tags cannot be created, renamed or deleted"
            case .downloading: "Downloads are unavailable"
            case .editing: "Photos cannot be edited"
            case .purging: "Photos cannot be deleted"
            }
        }
    }
}
