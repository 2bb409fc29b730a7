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
