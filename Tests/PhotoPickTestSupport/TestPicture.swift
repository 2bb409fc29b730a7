/// The quadrant picture the imaging tests read back in every format, and the name of a pixel's colour.
public enum TestPicture {
    /// The colour of (x, y) in a `width` × `height` picture of red, green / blue, white quadrants, each
    /// channel at `high` or `low`.
    public static func quadrant(_ x: Int, _ y: Int, width: Int, height: Int, high: UInt8 = 255, low: UInt8 = 0) -> (UInt8, UInt8, UInt8) {
        switch (x < width / 2, y < height / 2) {
        case (true, true): (high, low, low)
        case (false, true): (low, high, low)
        case (true, false): (low, low, high)
        case (false, false): (high, high, high)
        }
    }

    /// The picture's packed RGB rows.
    public static func quadrantPixels(width: Int, height: Int, high: UInt8 = 255, low: UInt8 = 0) -> [UInt8] {
        (0..<height).flatMap { y in
            (0..<width).flatMap { x -> [UInt8] in
                let (r, g, b) = quadrant(x, y, width: width, height: height, high: high, low: low)
                return [r, g, b]
            }
        }
    }

    /// "red", "green", "blue" or "white" for a pixel whose channels are each above `high` or below
    /// `low` (what a lossy format leaves of the quadrants); its numbers otherwise.
    public static func colourName(_ pixel: (red: UInt8, green: UInt8, blue: UInt8), high: UInt8, low: UInt8) -> String {
        let (r, g, b) = pixel
        let isHigh: (UInt8) -> Bool = { $0 > high }, isLow: (UInt8) -> Bool = { $0 < low }
        switch (r, g, b) {
        case _ where isHigh(r) && isLow(g) && isLow(b): return "red"
        case _ where isLow(r) && isHigh(g) && isLow(b): return "green"
        case _ where isLow(r) && isLow(g) && isHigh(b): return "blue"
        case _ where isHigh(r) && isHigh(g) && isHigh(b): return "white"
        default: return "(\(r),\(g),\(b))"
        }
    }
}
