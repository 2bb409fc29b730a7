import Foundation

/// How far the walk over the library has got, and how old the photos on screen are.
public struct LoadingStatus: Sendable, Equatable {
    /// Where the walk stands.
    public enum Phase: Sendable, Equatable {
        case notStarted
        case loading
        case complete
        /// Stopped by an error; everything loaded stays, and a retry resumes from the walk's cursor.
        case failed(String)
        case cancelled
    }

    /// Where the walk stands.
    public internal(set) var phase = Phase.notStarted
    /// When the photos on screen were last known complete: the end of the last complete walk, here or
    /// in an earlier session. Nil while no walk ever completed.
    internal(set) var asOf: Date?
    /// Whether photos came from the catalogue, so a walk is a refresh of them rather than a first listing.
    internal(set) var isRefresh = false
    /// Whether the walk under way is a refresh the user did not ask for, which keeps to its share of the
    /// budget (`RefreshPace`).
    internal(set) var isPaced = false
    /// Photos the walk under way has seen.
    internal(set) var walked = 0
    /// Whether the catalogue has been read (or there was none to read).
    package internal(set) var isCatalogueRead = false

    /// Whether a retry can resume it.
    public var canRetry: Bool {
        switch phase {
        case .failed, .cancelled: true
        default: false
        }
    }

    /// Whether a walk is under way.
    var isWalking: Bool { phase == .loading }

    /// "1,300 of ? loaded…" during a first listing; "100,000 photos as of 2 h ago · refreshing, 12,300
    /// checked" during a refresh; "5,000 photos" once known complete (with "as of" once that is a while ago).
    public func summary(count: Int, now: Date) -> String {
        let number = count.formatted()
        let photos = count == 1 ? "1 photo" : "\(number) photos"
        let age = asOf.flatMap { Self.age(of: $0, now: now) }
        let known = photos + (age.map { " as of \($0)" } ?? "")
        guard isRefresh else {
            return switch phase {
            case .notStarted: isCatalogueRead ? "\(number) of ? loaded…" : "opening…"
            case .loading: "\(number) of ? loaded…"
            case .complete: known
            case .failed: "\(number) of ? loaded, stopped"
            case .cancelled: "\(number) of ? loaded, paused"
            }
        }
        let cached = photos + " as of " + (age ?? "just now")
        return switch phase {
        case .notStarted: cached
        case .loading: cached + " · refreshing, \(walked.formatted()) checked"
        case .complete: known
        case .failed: cached + " · refresh stopped"
        case .cancelled: cached + " · refresh paused"
        }
    }

    /// "12 min ago", "2 h ago", "3 d ago"; nil within the last five minutes, when saying it is noise.
    static func age(of date: Date, now: Date) -> String? {
        let seconds = now.timeIntervalSince(date)
        guard seconds >= 300 else { return nil }
        if seconds < 3600 { return "\(Int(seconds / 60)) min ago" }
        if seconds < 86_400 * 2 { return "\(Int(seconds / 3600)) h ago" }
        return "\(Int(seconds / 86_400)) d ago"
    }
}
