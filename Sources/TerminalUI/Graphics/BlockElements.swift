/// The block elements (U+2580–U+259F) and the space that previews are drawn with, as the pixels of
/// an 8×16 cell each one's foreground covers: exact, since block elements are defined by their shapes.
public enum BlockElements {
    /// The cell the masks are drawn in.
    public static let cellWidth = 8, cellHeight = 16

    /// Whether the foreground of `scalar` covers pixel (x, y) of a cell; nil for any other character.
    public static func covers(_ scalar: UInt32, x: Int, y: Int) -> Bool? {
        masks[scalar].map { $0[y * cellWidth + x] }
    }

    /// The share of a cell the foreground of `scalar` covers; 0 for any other character.
    static func coverage(_ scalar: UInt32) -> Double {
        coverages[scalar] ?? 0
    }

    private static let masks: [UInt32: [Bool]] = {
        var masks: [UInt32: [Bool]] = [:]
        for scalar in [0x20] + Array(0x2580...0x259F) as [UInt32] {
            guard let covers = shape(scalar) else { continue }
            masks[scalar] = (0..<cellHeight).flatMap { y in (0..<cellWidth).map { x in covers(x, y) } }
        }
        return masks
    }()

    private static let coverages: [UInt32: Double] = masks.mapValues { Double($0.filter { $0 }.count) / Double(cellWidth * cellHeight) }

    private static func shape(_ scalar: UInt32) -> ((Int, Int) -> Bool)? {
        let upper = { (y: Int) in y < 8 }, left = { (x: Int) in x < 4 }
        switch scalar {
        case 0x20: return { _, _ in false }
        case 0x2588: return { _, _ in true }
        case 0x2580: return { _, y in upper(y) }
        case 0x2581...0x2587: let eighths = Int(scalar - 0x2580); return { _, y in y >= 16 - 2 * eighths }
        case 0x2589...0x258F: let eighths = Int(0x2590 - scalar); return { x, _ in x < eighths }
        case 0x2590: return { x, _ in !left(x) }
        case 0x2594: return { _, y in y < 2 }
        case 0x2595: return { x, _ in x >= 7 }
        case 0x2596...0x259F:
            // Quadrants: upper-left, upper-right, lower-left, lower-right, as bits per symbol.
            let bits: [UInt32: Int] = [0x2596: 0b0100, 0x2597: 0b1000, 0x2598: 0b0001, 0x2599: 0b1101, 0x259A: 0b1001, 0x259B: 0b0111,
                                       0x259C: 0b1011, 0x259D: 0b0010, 0x259E: 0b0110, 0x259F: 0b1110]
            let quadrants = bits[scalar]!
            return { x, y in quadrants & (1 << ((upper(y) ? 0 : 2) + (left(x) ? 0 : 1))) != 0 }
        default: return nil  // shades (U+2591–2593) are not block shapes libchafa is given
        }
    }
}
