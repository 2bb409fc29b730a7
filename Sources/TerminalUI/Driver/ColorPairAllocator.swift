/// Hands out ncurses colour pairs within `COLOR_PAIRS`, least recently used first.
///
/// A pair's colours can only be changed while no cell on the screen shows it: ncurses repaints every
/// cell of a redefined pair. So the driver counts, per pair, the cells on screen that use it, and only
/// pairs no cell uses are recycled, oldest first. The list's colours are on screen, so a full-screen
/// preview can never recolour them. When every pair is on screen (a terminal with few pairs showing a
/// photo), a colour gets the nearest pair already shown instead of none.
struct ColorPairAllocator {
    /// A foreground and background, as ncurses colour numbers (-1 is the terminal's default).
    struct Colors: Hashable {
        let foreground: Int32
        let background: Int32
    }

    /// What `acquire` decided.
    struct Grant: Equatable {
        let pair: Int32
        /// The pair is new or recycled: the caller must give it its colours (`init_extended_pair`).
        let mustDefine: Bool
    }

    /// Pairs 1...capacity are handed out; 0 is the terminal's own colours.
    let capacity: Int
    private var pairs: [Colors: Int32] = [:]
    private var colors: [Colors?]
    /// Cells on screen showing each pair.
    private var uses: [Int32]
    /// Pairs no cell shows, oldest first, as a linked list through two arrays (0 ends it).
    private var idleNewer: [Int32]
    private var idleOlder: [Int32]
    private var idleOldest: Int32 = 0
    private var idleNewest: Int32 = 0
    private var nextFresh: Int32 = 1
    private var substitutes: [Colors: Int32] = [:]

    init(capacity: Int) {
        self.capacity = max(0, capacity)
        colors = Array(repeating: nil, count: self.capacity + 1)
        uses = Array(repeating: 0, count: self.capacity + 1)
        idleNewer = Array(repeating: 0, count: self.capacity + 1)
        idleOlder = Array(repeating: 0, count: self.capacity + 1)
    }

    /// A pair for `wanted`, counted as shown by one more cell until `release`.
    mutating func acquire(_ wanted: Colors) -> Grant {
        if let pair = pairs[wanted] {
            if uses[Int(pair)] == 0 { unlinkIdle(pair) }
            uses[Int(pair)] += 1
            return Grant(pair: pair, mustDefine: false)
        }
        let pair: Int32
        if Int(nextFresh) <= capacity {
            pair = nextFresh
            nextFresh += 1
        } else if idleOldest != 0 {
            pair = idleOldest
            unlinkIdle(pair)
            if let old = colors[Int(pair)] { pairs[old] = nil }
        } else {
            guard let substitute = substitute(for: wanted) else { return Grant(pair: 0, mustDefine: false) }
            uses[Int(substitute)] += 1
            return Grant(pair: substitute, mustDefine: false)
        }
        substitutes.removeAll(keepingCapacity: true)
        pairs[wanted] = pair
        colors[Int(pair)] = wanted
        uses[Int(pair)] = 1
        return Grant(pair: pair, mustDefine: true)
    }

    /// One cell no longer shows `pair`.
    mutating func release(_ pair: Int32) {
        guard pair > 0, Int(pair) <= capacity, uses[Int(pair)] > 0 else { return }
        uses[Int(pair)] -= 1
        if uses[Int(pair)] == 0 { appendIdle(pair) }
    }

    /// The screen is about to be drawn whole: no cell shows anything yet.
    mutating func releaseAll() {
        for pair in 1..<nextFresh where uses[Int(pair)] > 0 {
            uses[Int(pair)] = 0
            appendIdle(pair)
        }
    }

    /// Cells on screen showing `pair`.
    func useCount(_ pair: Int32) -> Int { Int(uses[Int(pair)]) }

    /// The colours `pair` has now.
    func colors(of pair: Int32) -> Colors? { colors[Int(pair)] }

    private mutating func substitute(for wanted: Colors) -> Int32? {
        if let known = substitutes[wanted] { return known }
        var best: (pair: Int32, distance: Int)?
        for pair in 1..<nextFresh {
            guard let candidate = colors[Int(pair)] else { continue }
            let distance = Self.distance(candidate.foreground, wanted.foreground) + Self.distance(candidate.background, wanted.background)
            if best.map({ distance < $0.distance }) ?? true { best = (pair, distance) }
        }
        if let best { substitutes[wanted] = best.pair }
        return best?.pair
    }

    private static func distance(_ a: Int32, _ b: Int32) -> Int {
        guard a != b else { return 0 }
        let (r1, g1, b1) = rgb(a), (r2, g2, b2) = rgb(b)
        let dr = r1 - r2, dg = g1 - g2, db = b1 - b2
        return 2 * dr * dr + 4 * dg * dg + 3 * db * db
    }

    /// Approximate RGB of a colour number; the terminal's default counts as mid grey.
    private static func rgb(_ color: Int32) -> (Int, Int, Int) {
        switch color {
        case 16...255: return XtermPalette.rgb(UInt8(color))
        case 256...: return (Int(color >> 16 & 255), Int(color >> 8 & 255), Int(color & 255))
        case 0..<16:
            let level = color >= 8 ? 255 : 205
            let index = Int(color % 8)
            return (index & 1 != 0 ? level : 0, index & 2 != 0 ? level : 0, index & 4 != 0 ? level : 0)
        default: return (128, 128, 128)
        }
    }

    private mutating func appendIdle(_ pair: Int32) {
        idleOlder[Int(pair)] = idleNewest
        idleNewer[Int(pair)] = 0
        if idleNewest != 0 { idleNewer[Int(idleNewest)] = pair } else { idleOldest = pair }
        idleNewest = pair
    }

    private mutating func unlinkIdle(_ pair: Int32) {
        let older = idleOlder[Int(pair)], newer = idleNewer[Int(pair)]
        if older != 0 { idleNewer[Int(older)] = newer } else { idleOldest = newer }
        if newer != 0 { idleOlder[Int(newer)] = older } else { idleNewest = older }
        idleOlder[Int(pair)] = 0
        idleNewer[Int(pair)] = 0
    }
}
