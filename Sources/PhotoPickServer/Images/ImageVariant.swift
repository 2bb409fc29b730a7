/// A size the download endpoint serves (`size=`), and the original's size as JPEG (`format=jpeg` on a
/// HEIC, DNG or PNG original), which has a file URL of its own but is no `size=`.
enum ImageVariant: String, CaseIterable, Sendable {
    case original, a4, fhd, web
    case originalJPEG = "original-jpeg"

    /// The variant `size=` names, nil for anything else.
    init?(size: String) {
        guard let variant = Self(rawValue: size), variant != .originalJPEG else { return nil }
        self = variant
    }

    /// Bound on the long edge in pixels; nil for the original.
    var longEdge: Int? {
        switch self {
        case .original, .originalJPEG: nil
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
