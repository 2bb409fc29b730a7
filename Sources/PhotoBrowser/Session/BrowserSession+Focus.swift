import PhotoPreviews

extension BrowserSession {
    /// Records each focus score `loader` measures as it lands, until the session stops: the scores go
    /// from the loader to the session, not through the front end.
    public func measureFocus(with loader: PreviewLoader) {
        background { [weak self] in
            for await (photoID, score) in loader.focusScores { self?.report(.focus(.focusMeasured(photoID: photoID, score: score))) }
        }
    }
}
