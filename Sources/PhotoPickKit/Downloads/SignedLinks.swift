import Foundation

/// The signed file links `GET /photos/{id}/download` answered with, kept until shortly before they
/// expire, so a rendition fetched again (a preview the cursor came back to, a fetch cut short) costs the
/// file request alone, not the redirect's request before it as well.
///
/// A link's end is its `expires` query parameter (Unix seconds) when it has one, less a margin for the
/// request still to come; a link without one, as the real service may send, is kept for a minute. A link
/// refused as expired anyway is forgotten and a new one asked for.
struct SignedLinks: Sendable {
    /// What a link is for.
    struct Key: Hashable, Sendable {
        var photoID: Int
        var size: DownloadSize
    }

    /// Links kept at most; the soonest to expire go first.
    static let capacity = 512
    /// How long before its `expires` a link is no longer used: the request it goes in has to arrive in time.
    static let margin: TimeInterval = 30
    /// How long a link that names no expiry is used.
    static let unnamedLifetime: TimeInterval = 60

    private var links: [Key: (url: URL, usableUntil: Date)] = [:]

    /// The link for `key` while it is usable at `now`.
    mutating func link(for key: Key, at now: Date) -> URL? {
        guard let link = links[key] else { return nil }
        guard link.usableUntil > now else {
            links[key] = nil
            return nil
        }
        return link.url
    }

    /// Keeps `url`, issued at `now`, for `key`; one that is already too close to expiring is not kept.
    mutating func keep(_ url: URL, for key: Key, at now: Date) {
        let until = Self.usableUntil(url, issuedAt: now)
        guard until > now else { return }
        if links.count >= Self.capacity, links[key] == nil {
            links = links.filter { $0.value.usableUntil > now }
            if links.count >= Self.capacity, let soonest = links.min(by: { $0.value.usableUntil < $1.value.usableUntil }) {
                links[soonest.key] = nil
            }
        }
        links[key] = (url, until)
    }

    /// Forgets the link for `key`, as when the storage refused it.
    mutating func forget(_ key: Key) {
        links[key] = nil
    }

    static func usableUntil(_ url: URL, issuedAt now: Date) -> Date {
        let expires = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
            .first { $0.name == "expires" }?.value.flatMap(TimeInterval.init)
        guard let expires else { return now.addingTimeInterval(unnamedLifetime) }
        return Date(timeIntervalSince1970: expires - margin)
    }
}
