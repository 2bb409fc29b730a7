extension PreviewDecoder {
    /// The part of a rendition under `view`, a region of the original, enlarged to the original's scale:
    /// what the loupe shows while the original is on its way. `bytes` is the rendition, `size` its upright
    /// size, and `original` the original's.
    public func decodeStandIn(_ bytes: [UInt8], size: PixelSize, original: PixelSize, view: Loupe.Region) throws(PreviewError) -> PreviewImage {
        let scaleX = Double(size.width) / Double(original.width), scaleY = Double(size.height) / Double(original.height)
        let x0 = max(0, Int((Double(view.x) * scaleX).rounded(.down)) - 1), y0 = max(0, Int((Double(view.y) * scaleY).rounded(.down)) - 1)
        let x1 = min(size.width, Int((Double(view.x + view.width) * scaleX).rounded(.up)) + 1)
        let y1 = min(size.height, Int((Double(view.y + view.height) * scaleY).rounded(.up)) + 1)
        let part = try decodeRegion(bytes, x: x0, y: y0, width: max(1, x1 - x0), height: max(1, y1 - y0))
        return part.image.resampled(
            width: view.width, height: view.height,
            x: Double(view.x) * scaleX - Double(part.originX), y: Double(view.y) * scaleY - Double(part.originY),
            stepX: scaleX, stepY: scaleY
        )
    }
}
