/// The xterm-256 palette's colours as RGB: the 6×6×6 cube from 16 and the grey ramp from 232, which
/// every xterm-compatible terminal shows alike (the 16 system colours before them vary by terminal).
enum XtermPalette {
    /// The cube's six levels per channel.
    static let cubeLevels: [Int] = [0, 95, 135, 175, 215, 255]

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
