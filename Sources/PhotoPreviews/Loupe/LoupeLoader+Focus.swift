import PhotoImaging

/// A focus score the loupe took of what it shows: the view of the original at 100%, measured at every
/// pixel (`FocusScore.measureAtFullSize`), with where it was taken.
package struct LoupeFocus: Sendable, Equatable {
    /// The photo measured.
    package let photoID: Int
    /// Its focus there (`FocusScore.measureAtFullSize`).
    package let score: Double
    /// The part of the upright original measured.
    package let view: Loupe.Region
    /// The upright original's size.
    package let imageSize: PixelSize
}

/// The loupe's histogram describes the original: every pixel of it counted once, in the background,
/// after the first view, while the histogram is wanted (`H`). A JPEG is decoded whole for it, within
/// the decoder's pixel bound, and let go as soon as it is counted.
extension LoupeLoader {
    func countHistogram(photoID id: Int, _ picture: OriginalPicture) {
        guard store.histogram(photoID: id) == nil, histogramTasks[id] == nil else { return }
        let decoder = decoder
        histogramTasks[id] = Task.detached(priority: .utility) { [weak self] in
            guard !Task.isCancelled, let histogram = try? picture.histogram(decoder: decoder), !Task.isCancelled else { return }
            await self?.counted(histogram, photoID: id)
        }
    }

    /// Keeps a histogram counted while its photo is still wanted: on the actor, so a `want` that let the
    /// photo go cannot be undone by it.
    private func counted(_ histogram: Histogram, photoID id: Int) {
        histogramTasks[id] = nil
        guard !isStopped, wanted.contains(where: { $0.photo.id == id }) else { return }
        store.setHistogram(histogram, photoID: id)
        continuation.yield()
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
        // The view's pixels alone go to the task (a copy of a millisecond or two), not the band, so a band
        // let go is not held on by a measurement.
        guard let pixels = loupe.pixels else { return }
        let view = loupe.view, imageSize = loupe.imageSize
        focusTasks[id] = Task.detached(priority: .utility) { [weak self] in
            guard !Task.isCancelled, let score = FocusScore.measureAtFullSize(pixels), !Task.isCancelled else { return }
            await self?.measured(LoupeFocus(photoID: id, score: score, view: view, imageSize: imageSize))
        }
    }

    private func measured(_ focus: LoupeFocus) {
        guard !isStopped, measuredViews[focus.photoID] == focus.view else { return }
        focusTasks[focus.photoID] = nil
        focusContinuation.yield(focus)
    }
}
