import CHeif

/// The demo library's picture generator, for benchmarks and tests that need realistic images of any size.
public enum DemoImage {
    /// A baseline JPEG of the procedural scene for `seed`, at `width` x `height` and `quality`.
    public static func jpeg(seed: Int64, width: Int, height: Int, quality: Int = 90) throws -> [UInt8] {
        try JPEGEncoder.encode(SceneDesign(seed: seed), width: width, height: height, quality: quality)
    }

    /// What libheif lacks to make the demo library's HEIC and AVIF originals, each with its fix: its
    /// encoders are plugins, packaged apart on Debian.
    public static var missingEncoders: [String] {
        [(heif_compression_HEVC, "HEIC", "x265"), (heif_compression_AV1, "AVIF", "aomenc")].compactMap { format, name, plugin in
            OriginalEncoder.heifReady && heif_have_encoder_for_format(format) != 0 ? nil
                : "libheif has no \(name) encoder, so the demo library's \(name) originals cannot be made; install libheif-plugin-\(plugin)"
        }
    }

    /// A HEIC of the scene for `seed` as one HEVC picture, not the grid of tiles phones (and the demo
    /// library) write: what a reader must decode whole.
    public static func heicWithoutGrid(seed: Int64, width: Int, height: Int) throws -> [UInt8] {
        try OriginalEncoder.heif(try JPEGEncoder.render(SceneDesign(seed: seed), width: width, height: height), width: width, height: height, quality: 50, grid: false)
    }

    /// An original as the demo library makes them: `kind` is `jpeg`, `heic`, `dng` or `png`, at
    /// `width` x `height` and the weight the library would give it; a DNG's embedded preview is
    /// `previewScale` of its size (the demo's are full size; a smaller one makes the loupe demosaic).
    public static func original(kind: String, seed: Int64, width: Int, height: Int, previewScale: Double = 1) throws -> [UInt8] {
        guard let kind = OriginalKind(rawValue: kind) else { throw OriginalEncoder.Failure(description: "no kind \(kind); use \(OriginalKind.allCases.map(\.rawValue).joined(separator: ", "))") }
        if kind == .dng, previewScale != 1 {
            let pixels = try JPEGEncoder.render(SceneDesign(seed: seed), width: width, height: height)
            return try DNGWriter.dng(pixels: pixels, width: width, height: height, previewScale: previewScale, make: "PhotoPick", model: "Demo DNG")
        }
        let photo = PhotoRecord(
            id: 1, filename: "demo", bytes: kind.bytes(width: width, height: height, bitsPerPixel: 3.1), takenAt: nil, createdAt: 0,
            width: width, height: height, mimeType: kind.mimeType, imageSeed: seed
        )
        return try OriginalEncoder.encode(photo)
    }
}
