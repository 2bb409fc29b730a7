import PhotoBrowser
import PhotoPreviews

/// What opening a library gives the app: the session, the account's name for the header, and the
/// loader that fetches its previews.
public struct OpenedLibrary: Sendable {
    /// What the server said of a library opened before it answered.
    public enum Confirmation: Sendable {
        /// It is the key's library; the account's name, when the server gave it.
        case confirmed(name: String?)
        /// The key is another account's: this library replaces the one shown, whose session the app stops.
        case replaced(OpenedLibrary)
    }

    let session: BrowserSession
    let name: String?
    let previews: PreviewLoader?
    let loupes: LoupeLoader?
    /// Asks the server about a library opened before it answered (from the last run's catalogue);
    /// nil when the library needs no confirming. Throws what should end the program.
    let confirmation: (@MainActor @Sendable () async throws -> Confirmation)?

    /// What `open` hands the app.
    public init(
        session: BrowserSession, name: String?, previews: PreviewLoader?, loupes: LoupeLoader? = nil,
        confirmation: (@MainActor @Sendable () async throws -> Confirmation)? = nil
    ) {
        self.session = session
        self.name = name
        self.previews = previews
        self.loupes = loupes
        self.confirmation = confirmation
    }
}
