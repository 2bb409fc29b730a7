import PhotoImaging
import PhotoPickKit

/// The frame loop: a frame for each wanted view not yet shown, most important first.
extension LoupeLoader {
    /// Makes a frame for each wanted view not yet shown, most important first; starts over when the
    /// wants change meanwhile.
    func work() async {
        while pending, !isStopped {
            pending = false
            for request in wanted {
                let id = request.photo.id
                guard let source = sources[id] else { continue }
                if let shown = store.frame(photoID: id), shown.request == request, shown.source == source.kind { continue }
                var loupe = Self.positioned(request, source, loupe: loupes[id])
                if source.kind == .original, let shown = showAhead(request, loupe: loupe, imageSize: source.size) {
                    store.put(shown)
                    continuation.yield()
                    measureFocus(photoID: id, loupe)
                    continue
                }
                if source.kind == .original, loupe.regionToDecode != nil {
                    // The view left the band: the old band goes before the new one is decoded, so two
                    // are never held at once.
                    loupe.releaseBand()
                    loupes[id]?.releaseBand()
                }
                let made = await Task.detached { [loupe, decoder, render] in
                    Self.frame(request, source, loupe: loupe, decoder: decoder, render: render)
                }.value
                guard !isStopped, sources[id]?.kind == source.kind else { continue }
                if case .success(let (_, decoded)) = made, source.kind == .original, wanted.contains(where: { $0.photo.id == id }) {
                    // Kept even when keys moved the view meanwhile: the next view is most likely in it.
                    loupes[id] = decoded
                }
                guard wanted.contains(request) else { continue }
                switch made {
                case .success(let (frame, decoded)):
                    store.put(frame)
                    if source.kind == .original { measureFocus(photoID: id, decoded) }
                case .failure(let error):
                    if source.kind == .original {
                        sources[id] = nil
                        failed.insert(id)
                        unreadable.insert(id)
                        originals?.remove(photoID: id, variant: Self.originalVariant)
                        store.set(.failed("original unreadable: \(error.description)"), photoID: id)
                        startStandIn(photoID: id)
                    } else {
                        sources[id] = nil
                        store.setStandInFailure(error.description, photoID: id)
                    }
                }
                continuation.yield()
                if pending { break }
            }
            if !pending { await decodeAhead() }
            if !pending { await renderAhead() }
        }
        worker = nil
    }

    /// One frame: from the original, the view cut from the band (decoded again only when the view left
    /// it); from a stand-in, its part of the rendition enlarged to the original's scale.
    static func frame(
        _ request: LoupeRequest, _ source: Source, loupe: Loupe, decoder: PreviewDecoder, render: PreviewLoader.Render?
    ) -> Result<(LoupeFrame, Loupe), PreviewError> {
        var loupe = loupe
        do throws(PreviewError) {
            let imageSize = loupe.imageSize
            let pixels: PreviewImage
            if source.kind == .original {
                if let region = loupe.regionToDecode(viewFirst: source.picture.decodesViewFirst) {
                    let band = try source.picture.region(x: region.x, y: region.y, width: region.width, height: region.height, decoder: decoder)
                    loupe.decoded(band.image, x: band.originX, y: band.originY)
                }
                guard let view = loupe.pixels else { throw PreviewError.corrupt("the original is smaller than its header says") }
                pixels = view
            } else {
                guard case .jpeg(let bytes) = source.picture.pixels else { throw PreviewError.notJPEG }
                pixels = try decoder.decodeStandIn(bytes, size: source.size, original: imageSize, view: loupe.view)
            }
            let preview = PreviewRequest(photoID: request.photo.id, box: request.box, clipping: request.clipping)
            let rendering = PreviewLoader.rendered(preview, pixels, source: [], with: render)
            let frame = LoupeFrame(request: request, size: pixels.size, view: loupe.view, imageSize: imageSize, source: source.kind, rendering: rendering, note: source.note)
            return .success((frame, loupe))
        } catch {
            return .failure(error)
        }
    }

    /// The loupe for `request`: the one held, moved to the request's centre, while the picture and the
    /// screen are the same; else a new one.
    static func positioned(_ request: LoupeRequest, _ source: Source, loupe: Loupe?) -> Loupe {
        let imageSize = source.kind == .original ? source.size : originalSize(of: request.photo, standIn: source.size)
        var loupe = loupe.flatMap { $0.imageSize == imageSize && $0.viewport == request.box ? $0 : nil }
            ?? Loupe(imageSize: imageSize, viewport: request.box, centre: (request.centre.x, request.centre.y))
        loupe.follow((request.centre.x, request.centre.y))
        return loupe
    }
}
