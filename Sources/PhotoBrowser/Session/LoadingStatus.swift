/// How far the walk over the library has got.
public struct LoadingStatus: Sendable, Equatable {
    /// Where the walk stands.
    public enum Phase: Sendable, Equatable {
        case notStarted
        case loading
        case complete
        /// Stopped by an error; everything loaded stays, and a retry resumes from the last cursor.
        case failed(String)
        case cancelled
    }

    /// Where the walk stands.
    public internal(set) var phase = Phase.notStarted
    /// Where a retry resumes.
    var nextCursor: String?

    /// Whether a retry can resume it.
    public var canRetry: Bool {
        switch phase {
        case .failed, .cancelled: true
        default: false
        }
    }

    /// "1,300 of ? loaded…" while loading, "5,000 photos" once done.
    public func summary(count: Int) -> String {
        let number = count.formatted()
        return switch phase {
        case .notStarted, .loading: "\(number) of ? loaded…"
        case .complete: count == 1 ? "1 photo" : "\(number) photos"
        case .failed: "\(number) of ? loaded, stopped"
        case .cancelled: "\(number) of ? loaded, paused"
        }
    }
}
