import PhotoPreviews

extension BrowserSession {
    /// Records each focus score `loader` measures as it lands, until the session stops: the scores go
    /// from the loader to the session, not through the front end.
    public func measureFocus(with loader: PreviewLoader) {
        background { [weak self] in
            for await (photoID, score) in loader.focusScores { self?.report(.focus(.focusMeasured(photoID: photoID, score: score))) }
        }
    }

    /// Records each focus score the loupe takes at 100% as it lands, until the session stops.
    package func measureFocus(with loupes: LoupeLoader) {
        background { [weak self] in
            for await focus in loupes.focusScores {
                let spot = FullSizeFocus.Spot(
                    x: focus.view.x, y: focus.view.y, width: focus.view.width, height: focus.view.height,
                    imageWidth: focus.imageSize.width, imageHeight: focus.imageSize.height
                )
                self?.report(.focus(.focusMeasuredAtFullSize(photoID: focus.photoID, FullSizeFocus(score: focus.score, spot: spot))))
            }
        }
    }
}
