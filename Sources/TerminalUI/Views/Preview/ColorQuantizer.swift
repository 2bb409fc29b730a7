/// Maps RGB pixels to terminal colours: the xterm-256 cube and grey ramp (never the 16 system colours,
/// which every terminal shows differently), or the 8 ANSI colours. Ordered (Bayer) dithering spreads
/// the error of the coarse palette over neighbouring pixels, so gradients show as gradients rather than
/// bands; a colour that sits on the palette is never dithered.
struct ColorQuantizer: Sendable {
    let depth: Theme.Depth

    /// The cube's six levels per channel.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]
    /// The grey ramp's levels, with the cube's black and white at the ends: index 0 is colour 16,
    /// 1...24 are 232...255, 25 is 231.
    static let greyLevels: [Int] = [0] + (0..<24).map { 8 + 10 * $0 } + [255]

    /// A 4×4 Bayer matrix as thresholds in 0..<256.
    static let bayer: [Int] = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5].map { $0 * 16 + 8 }

    /// For each 8-bit value: the level just below (or at) it and how far towards the next, in 0...255.
    private static let cubeSteps: [(low: UInt8, fraction: UInt8)] = steps(cubeLevels)
    private static let greySteps: [(low: UInt8, fraction: UInt8)] = steps(greyLevels)

    private static func steps(_ levels: [Int]) -> [(low: UInt8, fraction: UInt8)] {
        (0...255).map { value in
            let low = (0..<(levels.count - 1)).last { levels[$0] <= value } ?? 0
            guard low < levels.count - 1 else { return (UInt8(low), 0) }
            let fraction = (value - levels[low]) * 255 / (levels[low + 1] - levels[low])
            return (UInt8(low), UInt8(fraction))
        }
    }

    /// The palette index for the pixel (red, green, blue) at (x, y); the position picks the dither threshold.
    @inline(__always)
    func color(_ red: UInt8, _ green: UInt8, _ blue: UInt8, x: Int, y: Int) -> UInt8 {
        let threshold = Self.bayer[(y & 3) * 4 + (x & 3)]
        switch depth {
        case .colors8:
            // One bit per channel: 0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white.
            let r: UInt8 = Int(red) > threshold ? 1 : 0
            let g: UInt8 = Int(green) > threshold ? 2 : 0
            let b: UInt8 = Int(blue) > threshold ? 4 : 0
            return r | g | b
        case .colors256, .monochrome:
            let high = max(red, green, blue), low = min(red, green, blue)
            if high - low < 10 {
                // Near-neutral: the grey ramp has 26 steps where the cube has 6.
                let grey = (Int(red) + Int(green) + Int(blue)) / 3
                let step = Self.greySteps[grey]
                let level = Int(step.low) + (Int(step.fraction) > threshold ? 1 : 0)
                return level == 0 ? 16 : level == 25 ? 231 : UInt8(231 + level)
            }
            let r = Self.cubeLevel(red, threshold), g = Self.cubeLevel(green, threshold), b = Self.cubeLevel(blue, threshold)
            return UInt8(16 + 36 * r + 6 * g + b)
        }
    }

    @inline(__always)
    private static func cubeLevel(_ value: UInt8, _ threshold: Int) -> Int {
        let step = cubeSteps[Int(value)]
        return Int(step.low) + (Int(step.fraction) > threshold ? 1 : 0)
    }

    /// The RGB an xterm shows for palette colour `index` (16...255).
    static func rgb(_ index: UInt8) -> (Int, Int, Int) {
        if index >= 232 {
            let grey = 8 + 10 * (Int(index) - 232)
            return (grey, grey, grey)
        }
        let cube = max(0, Int(index) - 16)
        return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
    }
}
