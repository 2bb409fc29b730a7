import PhotoImaging

/// Work done while nothing is asked: the next band decoded, and for a renderer slower than a pan the
/// views one pan away rendered, so a pan to one is shown at once.
extension LoupeLoader {
    /// The frame for `request` from a rendering made ahead, when its view is one: the views one pan away
    /// are then dropped (they are the new view's no longer), and the view left is kept for the way back.
    func showAhead(_ request: LoupeRequest, loupe: Loupe, imageSize: PixelSize) -> LoupeFrame? {
        let id = request.photo.id
        guard rendersAhead, let held = ahead[id], held.box == request.box, held.clipping == request.clipping, let rendering = held.views[loupe.view] else { return nil }
        var kept: [Loupe.Region: any PreviewRendering] = [:]
        if let left = store.frame(photoID: id), left.source == .original, left.request.box == request.box, left.request.clipping == request.clipping,
           let leftRendering = left.rendering {
            kept[left.view] = leftRendering
        }
        ahead[id] = (request.box, request.clipping, kept)
        loupes[id] = loupe
        shownFromAhead += 1
        return LoupeFrame(
            request: request, size: PixelSize(width: loupe.view.width, height: loupe.view.height), view: loupe.view,
            imageSize: imageSize, source: .original, rendering: rendering, note: sources[id]?.note
        )
    }

    /// With every view shown and its band decoded, renders the views one pan away in each direction that
    /// the band holds, most important photo first; stops as soon as new views are wanted.
    func renderAhead() async {
        guard rendersAhead, let render else { return }
        for request in wanted where !pending && !isStopped {
            let id = request.photo.id
            guard let source = sources[id], source.kind == .original, let loupe = loupes[id],
                  let shown = store.frame(photoID: id), shown.request == request, shown.source == .original else { continue }
            let neighbours = [Loupe.Direction.right, .left, .down, .up].map { direction in
                var next = loupe
                next.pan(direction)
                return next
            }.filter { $0.view != loupe.view }
            // Only the views one pan from this one are kept (the one just left among them).
            let near = Set(neighbours.map(\.view))
            let same = { (held: (box: PixelSize, clipping: Bool, views: [Loupe.Region: any PreviewRendering])) in held.box == request.box && held.clipping == request.clipping }
            ahead[id] = (request.box, request.clipping, ahead[id].map { same($0) ? $0.views.filter { near.contains($0.key) } : [:] } ?? [:])
            for next in neighbours where !pending && !isStopped {
                guard ahead[id]?.views[next.view] == nil, let pixels = next.pixels else { continue }
                let box = request.box, clipping = request.clipping
                let rendering = await Task.detached {
                    PreviewLoader.rendered(PreviewRequest(photoID: id, box: box, clipping: clipping), pixels, source: [], with: render)
                }.value
                guard let rendering, loupes[id]?.view == loupe.view, ahead[id]?.box == box, ahead[id]?.clipping == clipping else { continue }
                ahead[id]?.views[next.view] = rendering
            }
        }
    }

    /// With every view shown, decodes a band centred on each original's view where the next pan would
    /// leave the band held, so that pan is a copy; stops as soon as new views are wanted.
    func decodeAhead() async {
        for request in wanted where !pending && !isStopped {
            let id = request.photo.id
            guard let source = sources[id], source.kind == .original, let loupe = loupes[id], let region = loupe.bandAhead else { continue }
            // The view is on screen: its band can go before the next one is decoded.
            loupes[id]?.releaseBand()
            let band = await Task.detached { [decoder] in
                try? source.picture.region(x: region.x, y: region.y, width: region.width, height: region.height, decoder: decoder)
            }.value
            guard let band, loupes[id]?.view == loupe.view, sources[id]?.kind == .original else { continue }
            loupes[id]?.decoded(band.image, x: band.originX, y: band.originY)
        }
    }
}
