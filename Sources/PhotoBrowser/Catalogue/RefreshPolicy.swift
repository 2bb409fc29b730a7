import PhotoPickKit
/// When the catalogue is checked against the server (`refresh` in the config). A check walks every page,
/// one request per 100 photos, at the lowest priority; `R` starts one at any time.
public enum RefreshPolicy: String, Sendable, CaseIterable {
    /// At every start.
    case onStart = "on-start"
    /// At a start when the last complete check is an hour old or more, and every hour while running.
    /// The default: a day of quick restarts spends nothing, and nothing on screen is more than an hour
    /// out of date without the header saying so.
    case hourly
    /// Only when `R` is pressed (a check interrupted earlier still resumes).
    case manual

    /// How long a complete check counts as current under `hourly`.
    static let hour: Double = 3600
}

/// How fast a check of the library the user did not ask for walks: at most a tenth of the budget, so
/// the user's own requests never feel it. At a million photos (10,000 pages) and 300 requests a
/// minute that is a page every 2 s, a whole check in 5 h 33 min; new photos come before it, past the
/// last walk's tail, in a request or two.
package enum RefreshPace {
    /// The share of each window's requests a check may spend.
    package static let share = 0.1

    /// The time between pages for a library of `photos` under `limit` requests a minute (300 until the
    /// server has said); nil when the whole walk fits in the share of one window.
    package static func interval(photos: Int, limit: Int?) -> Duration? {
        let perWindow = Double(limit ?? 300) * share
        let pages = Double(photos) / Double(API.maximumPageSize)
        guard perWindow > 0, pages > perWindow else { return nil }
        return .seconds(60 / perWindow)
    }
}
