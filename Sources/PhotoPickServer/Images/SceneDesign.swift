import CSceneRender

/// The procedural photograph of one photo: its landscape, and how it was focused, held and exposed.
struct SceneDesign: Sendable, Hashable {
    private let landscape: cjpeg_landscape
    /// What the landscape is made from, which two scenes are equal by.
    private let parameters: [Float]
    private let seed: UInt64

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.seed == rhs.seed && lhs.parameters == rhs.parameters }
    func hash(into hasher: inout Hasher) {
        hasher.combine(seed)
        hasher.combine(parameters)
    }

    init(seed: Int64, defocus: Double = 0, motion: Double = 0, gain: Double = 1, iso: Int? = nil) {
        // Noisier at higher ISO, as a sensor is: about one level at base ISO, five at 6400.
        let grain = 0.8 + Double(iso ?? 100) / 1600
        landscape = cjpeg_landscape(
            seed: UInt64(bitPattern: seed), defocus: Float(defocus), motion: Float(motion), gain: Float(gain), grain: Float(grain)
        )
        self.seed = landscape.seed
        parameters = [landscape.defocus, landscape.motion, landscape.gain, landscape.grain]
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
