/// A size the download endpoint serves (`size=`).
enum ImageVariant: String, CaseIterable, Sendable {
    case original, a4, fhd, web

    /// Bound on the long edge in pixels; nil for the original.
    var longEdge: Int? {
        switch self {
        case .original: nil
        case .a4: 3508
        case .fhd: 1920
        case .web: 1024
        }
    }

    /// Pixel size of this variant of a `width` x `height` original; never upscaled.
    func dimensions(width: Int, height: Int) -> (width: Int, height: Int) {
        guard let longEdge, max(width, height) > longEdge else { return (width, height) }
        let scale = Double(longEdge) / Double(max(width, height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
