/// The xterm-256 palette's colours as RGB: the 6×6×6 cube from 16 and the grey ramp from 232, which
/// every xterm-compatible terminal shows alike, and before them the 16 system colours as xterm shows
/// them (other terminals vary).
enum XtermPalette {
    /// The cube's six levels per channel.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

    /// xterm's system colours 0...15.
    static let system: [(Int, Int, Int)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]

    /// The RGB an xterm shows for palette colour `index`.
    static func rgb(_ index: UInt8) -> (Int, Int, Int) {
        if index < 16 { return system[Int(index)] }
        if index >= 232 {
            let grey = 8 + 10 * (Int(index) - 232)
            return (grey, grey, grey)
        }
        let cube = max(0, Int(index) - 16)
        return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
    }
}
