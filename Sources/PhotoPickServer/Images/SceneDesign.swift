import CSceneRender

/// The procedural photograph of one photo: its landscape, and how it was focused, held and exposed.
struct SceneDesign: Sendable, Hashable {
    private let landscape: cjpeg_landscape

    /// Every field of the C landscape, its floats by their bits: two scenes are equal when they render
    /// the same pixels. A field added to `cjpeg_landscape` must be added here.
    private var fields: (UInt64, UInt32, UInt32, UInt32, UInt32) {
        (landscape.seed, landscape.defocus.bitPattern, landscape.motion.bitPattern, landscape.gain.bitPattern, landscape.grain.bitPattern)
    }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.fields == rhs.fields }
    func hash(into hasher: inout Hasher) {
        let (seed, defocus, motion, gain, grain) = fields
        hasher.combine(seed)
        hasher.combine(defocus)
        hasher.combine(motion)
        hasher.combine(gain)
        hasher.combine(grain)
    }

    init(seed: Int64, defocus: Double = 0, motion: Double = 0, gain: Double = 1, iso: Int? = nil) {
        // Noisier at higher ISO, as a sensor is: about one level at base ISO, five at 6400.
        let grain = 0.8 + Double(iso ?? 100) / 1600
        landscape = cjpeg_landscape(
            seed: UInt64(bitPattern: seed), defocus: Float(defocus), motion: Float(motion), gain: Float(gain), grain: Float(grain)
        )
    }

    init(_ photo: PhotoRecord) {
        self.init(seed: photo.imageSeed, defocus: photo.imageDefocus, motion: photo.imageMotion, gain: photo.imageGain, iso: photo.iso)
    }

    /// Calls `body` with the C view of this scene, valid only during the call.
    func withScene<Result>(_ body: (UnsafePointer<cjpeg_landscape>) throws -> Result) rethrows -> Result {
        var landscape = landscape
        return try body(&landscape)
    }
}
