import PhotoBrowser
import PhotoPreviews

/// What opening a library gives the app: the session, the account's name for the header, and the
/// loader that fetches its previews.
public struct OpenedLibrary: Sendable {
    let session: BrowserSession
    let name: String?
    let previews: PreviewLoader?
    let loupes: LoupeLoader?

    /// What `open` hands the app.
    public init(session: BrowserSession, name: String?, previews: PreviewLoader?, loupes: LoupeLoader? = nil) {
        self.session = session
        self.name = name
        self.previews = previews
        self.loupes = loupes
    }
}
