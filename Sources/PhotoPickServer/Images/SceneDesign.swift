import CJPEG

/// The procedural picture of one photo: a gradient with shapes, different for every seed.
struct SceneDesign: Sendable {
    private let from: cjpeg_rgb
    private let to: cjpeg_rgb
    private let angle: Float
    private let vignette: Float
    private let grain: Float
    private let noiseSeed: UInt32
    private let shapes: [cjpeg_shape]

    init(seed: Int64) {
        var random = SeededRandom(seed: UInt64(bitPattern: seed))
        func color() -> cjpeg_rgb {
            cjpeg_rgb(r: .random(in: 0...255, using: &random), g: .random(in: 0...255, using: &random),
                      b: .random(in: 0...255, using: &random))
        }
        from = color()
        to = color()
        angle = .random(in: 0...(2 * .pi), using: &random)
        vignette = .random(in: 0.1...0.6, using: &random)
        grain = .random(in: 0.5...2, using: &random)
        noiseSeed = .random(in: 0...UInt32.max, using: &random)
        shapes = (0..<Int.random(in: 3...9, using: &random)).map { _ in
            cjpeg_shape(
                kind: cjpeg_shape_kind(rawValue: .random(in: 0...3, using: &random)),
                x: .random(in: 0...1, using: &random), y: .random(in: 0...1, using: &random),
                size: .random(in: 0.03...0.3, using: &random), size2: .random(in: 0.02...0.25, using: &random),
                alpha: .random(in: 0.35...1, using: &random), color: color()
            )
        }
    }

    /// Calls `body` with the C view of this scene, valid only during the call.
    func withScene<Result>(_ body: (UnsafePointer<cjpeg_scene>) throws -> Result) rethrows -> Result {
        try shapes.withUnsafeBufferPointer { shapes in
            var scene = cjpeg_scene(
                from: from, to: to, angle: angle, vignette: vignette, grain: grain, noise_seed: noiseSeed,
                shapes: shapes.baseAddress, shape_count: Int32(shapes.count)
            )
            return try body(&scene)
        }
    }
}
