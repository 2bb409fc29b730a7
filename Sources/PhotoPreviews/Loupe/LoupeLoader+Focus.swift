import PhotoImaging

/// A focus score the loupe took of what it shows: the view of the original at 100%, measured at every
/// pixel (`FocusScore.measureAtFullSize`), with where it was taken.
public struct LoupeFocus: Sendable, Equatable {
    public let photoID: Int
    public let score: Double
    /// The part of the upright original measured.
    public let view: Loupe.Region
    /// The upright original's size.
    public let imageSize: PixelSize
}

/// The loupe's histogram describes the original: every pixel of it counted once, in the background,
/// after the first view.
extension LoupeLoader {
    func countHistogram(photoID id: Int, _ picture: OriginalPicture) {
        guard store.histogram(photoID: id) == nil else { return }
        let store = store, continuation = continuation, decoder = decoder
        histogramTasks[id]?.cancel()
        histogramTasks[id] = Task.detached(priority: .utility) { [weak self] in
            guard let histogram = try? picture.histogram(decoder: decoder), !Task.isCancelled else { return }
            guard await self?.wants(photoID: id) == true else { return }
            store.setHistogram(histogram, photoID: id)
            continuation.yield()
        }
    }

    private func wants(photoID id: Int) -> Bool {
        !isStopped && wanted.contains { $0.photo.id == id }
    }
}

/// Judging focus on what the loupe shows: each view of an original, once it is on screen, measured in
/// the background, so a burst walked in the loupe is ranked on its own pixels, not on a rendition's.
extension LoupeLoader {
    /// Measures `loupe`'s view of photo `id` unless that view was the last measured; a newer view of
    /// the photo replaces a measurement still under way.
    func measureFocus(photoID id: Int, _ loupe: Loupe) {
        guard !isStopped, measuredViews[id] != loupe.view, loupe.band?.region.contains(loupe.view) == true else { return }
        measuredViews[id] = loupe.view
        focusTasks[id]?.cancel()
        focusTasks[id] = Task.detached(priority: .utility) { [weak self] in
            // The view is cut from the band here, off the actor.
            guard let pixels = loupe.pixels, let score = FocusScore.measureAtFullSize(pixels), !Task.isCancelled else { return }
            await self?.measured(LoupeFocus(photoID: id, score: score, view: loupe.view, imageSize: loupe.imageSize))
        }
    }

    private func measured(_ focus: LoupeFocus) {
        guard !isStopped, measuredViews[focus.photoID] == focus.view else { return }
        focusTasks[focus.photoID] = nil
        focusContinuation.yield(focus)
    }
}
