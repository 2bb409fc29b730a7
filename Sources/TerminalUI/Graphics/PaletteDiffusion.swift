/// Maps 24-bit cells of symbols to a terminal palette: in 256 colours each cell's pair chosen jointly
/// (`quantiseJointly`), in eight diffused over cells (`quantiseDiffused`). Hand-written: libchafa maps
/// each colour on its own, or dithers luminance and colour together.
enum PaletteDiffusion {
    /// A palette's entries as RGB, and the index of its first.
    struct Palette {
        let entries: [(Int, Int, Int)]
        let firstIndex: Int
        /// The entries' positions ordered by luminance, and those luminances: the search starts at the
        /// target's luminance and stops once luminance alone costs more than the best found.
        let byLuma: [Int]
        let lumas: [Double]
        /// The entries as Double RGB, and each one's luminance, in the entries' order (`quantiseJointly`).
        let colors: [(Double, Double, Double)]
        let entryLumas: [Double]

        init(entries: [(Int, Int, Int)], firstIndex: Int) {
            self.entries = entries
            self.firstIndex = firstIndex
            let colors = entries.map { (Double($0.0), Double($0.1), Double($0.2)) }
            let entryLumas = colors.map(PaletteDiffusion.luma)
            let byLuma = entries.indices.sorted { entryLumas[$0] < entryLumas[$1] }
            (self.colors, self.entryLumas, self.byLuma) = (colors, entryLumas, byLuma)
            lumas = byLuma.map { entryLumas[$0] }
        }

        /// Whether this is `xterm256`, whose cube and ramp let the nearest entries be found near the colour.
        var isXterm256: Bool { firstIndex == 16 && entries.count == 240 }

        /// The cube and greys, 16...255, which every xterm-compatible terminal shows alike.
        static let xterm256 = Palette(entries: (16...255).map { XtermPalette.rgb(UInt8($0)) }, firstIndex: 16)
        /// The eight ANSI colours as xterm shows them.
        static let ansi8 = Palette(entries: Array(XtermPalette.system.prefix(8)), firstIndex: 0)
    }

    /// How much more a difference in luminance counts than one in colour when choosing an entry.
    static let lumaWeight = 30.0

    /// `cells` in `palette`'s colours: in the 256-colour palette each cell's pair chosen jointly, with
    /// nothing carried to its neighbours; in eight colours, diffused (`quantiseDiffused`), as eight
    /// cannot show a tone without mixing neighbours.
    static func quantise(_ cells: SymbolCells, to palette: Palette) -> SymbolCells {
        palette.isXterm256 ? quantiseJointly(cells, to: palette) : quantiseDiffused(cells, to: palette)
    }

    /// Candidates per colour for `quantiseJointly`, the weight of the cell's contrast against its mean,
    /// and what a colour a neighbour above or to the left shows costs.
    static let candidates = 8
    static let contrastWeight = 1.0
    static let neighbourDiscount = 0.7
    /// How much each half's own error counts beside the cell's mean (`quantiseJointly`).
    static let halfWeight = 1.0

    /// Each cell's foreground and background chosen together among the eight entries nearest each: the
    /// pair whose mix, in the symbol's coverage, comes nearest the cell's mean colour, with the
    /// difference in luminance between the two (what draws the symbol's shape) kept near the 24-bit
    /// cell's. No error goes to the neighbours: carrying the colour a cell misses onto the next speckled
    /// saturated reds and magentas. On 12 of the demo's photos (`photopick-bench graphics --parts
    /// palette`) this beat chafa --colors 256 on every photo on both SSIM (0.80 mean against 0.74) and
    /// the median colour error per cell (17.3 against 20.7); the luminance-first diffusion it replaced
    /// had SSIM 0.82 and an error of 25.2. Eight candidates and a weight of 1, against 6 or 10 and 0.3
    /// to 10: the best worst photo on both figures. Choosing in CIELAB instead looked truer in hue but
    /// lost on both (SSIM 0.73, error 20.4). The neighbour discount (0.7) leaves the figures as they
    /// were and a beige sky less mottled with pink and green.
    ///
    /// Each half also answers for itself: the pair's cost adds, weighted by what each half covers, the
    /// distance between the entry a half shows and the colour it stands for. Chosen by the cell's mean
    /// alone, a grey half and a magenta half stood for a purple sky, and a person saw bands of magenta
    /// and blue where the photo has none (issue 42). With the halves (weight 1; 0.5, 2 and 4 measured),
    /// on the 12 photos: the median error per half cell 23.2 (chafa 23.4; 27.7 before), SSIM 0.82
    /// (0.81 before; chafa 0.74), the cell's colour error 18.8 (15.7 before; chafa 20.7), and the dusk
    /// sky of photo 4 dark grey as chafa draws it, without the bands. A penalty on saturation beyond the
    /// photo's changed no figure for the better and was left out.
    /// `palette` is `xterm256`: candidates come from its cube's neighbourhood.
    static func quantiseJointly(_ cells: SymbolCells, to palette: Palette) -> SymbolCells {
        var result = SymbolCells(columns: cells.columns, rows: cells.rows, indexed: true)
        result.characters = cells.characters
        let entries = palette.colors, lumas = palette.entryLumas
        let width = cells.columns
        var chosen = [(Int, Int)](repeating: (-1, -1), count: cells.characters.count)
        // Scratch for the candidates, and for the neighbourhood they are found in.
        var fgs = [Int](repeating: 0, count: Self.candidates), bgs = [Int](repeating: 0, count: Self.candidates)
        var distances = [Double](repeating: 0, count: Self.candidates)
        var around: [Int] = []
        around.reserveCapacity(30)
        func nearestEntries(for packed: Int32, into list: inout [Int]) {
            let color = unpack(packed)
            xterm256Neighbourhood(color, into: &around)
            nearest(to: color, in: entries, among: around, into: &list, distances: &distances)
        }
        for index in cells.characters.indices {
            let foreground = unpack(cells.foreground[index]), background = unpack(cells.background[index])
            let coverage = BlockElements.coverage(cells.characters[index])
            let wanted = mix(foreground, background, coverage)
            let contrast = luma(foreground) - luma(background)
            // A full block or a space shows one colour: the other is not searched.
            let fgCount = coverage > 0 ? Self.candidates : 1, bgCount = coverage < 1 ? Self.candidates : 1
            if coverage > 0 { nearestEntries(for: cells.foreground[index], into: &fgs) } else { fgs[0] = 0 }
            if coverage < 1 { nearestEntries(for: cells.background[index], into: &bgs) } else { bgs[0] = 0 }
            let left = index % width > 0 ? chosen[index - 1] : (-1, -1), up = index >= width ? chosen[index - width] : (-1, -1)
            var best = (fgs[0], bgs[0]), bestCost = Double.infinity
            for f in fgs.prefix(fgCount) {
                for b in bgs.prefix(bgCount) {
                    let shown = mix(entries[f], entries[b], coverage)
                    let missed = lumas[f] - lumas[b] - contrast
                    // The contrast counts as much as the coverage lets it show (most in a half block).
                    var cost = distance(shown, wanted) + contrastWeight * 36 * coverage * (1 - coverage) * missed * missed
                    // Each half against the colour it stands for, weighted by what it covers.
                    cost += halfWeight * (coverage * distance(entries[f], foreground) + (1 - coverage) * distance(entries[b], background))
                    // The colour most of the cell shows, if a neighbour shows it too, costs less: flat areas
                    // stay flat rather than mottled by near-equal choices.
                    let main = coverage >= 0.5 ? f : b
                    if main == left.0 || main == left.1 || main == up.0 || main == up.1 { cost *= neighbourDiscount }
                    if cost < bestCost {
                        bestCost = cost
                        best = (f, b)
                    }
                }
            }
            chosen[index] = best
            result.foreground[index] = Int32(best.0 + palette.firstIndex)
            result.background[index] = Int32(best.1 + palette.firstIndex)
        }
        return result
    }

    private static func unpack(_ packed: Int32) -> (Double, Double, Double) {
        let value = max(0, packed)
        return (Double(value >> 16 & 255), Double(value >> 8 & 255), Double(value & 255))
    }

    static func luma(_ color: (Double, Double, Double)) -> Double { 0.299 * color.0 + 0.587 * color.1 + 0.114 * color.2 }

    /// The "redmean" weighted RGB distance: cheap, and closer to how far apart colours look than plain RGB.
    private static func distance(_ a: (Double, Double, Double), _ b: (Double, Double, Double)) -> Double {
        let r = (a.0 + b.0) / 2, dr = a.0 - b.0, dg = a.1 - b.1, db = a.2 - b.2
        return (2 + r / 256) * dr * dr + 4 * dg * dg + (2 + (255 - r) / 256) * db * db
    }


    /// The entries of the 256-colour palette around `color`: the cube's three levels nearest each channel
    /// (27) and the three greys nearest its mean. The candidates come from these rather than all 240: a
    /// ninth of the time, and the pairs stay near the colour (a far entry of the same redmean distance
    /// no longer comes in): on the 12 photos SSIM 0.81 and an error of 15.7, from 0.80 and 17.3.
    static func xterm256Neighbourhood(_ color: (Double, Double, Double)) -> [Int] {
        var result: [Int] = []
        result.reserveCapacity(30)
        xterm256Neighbourhood(color, into: &result)
        return result
    }

    /// `xterm256Neighbourhood` into `result`, which it empties first.
    static func xterm256Neighbourhood(_ color: (Double, Double, Double), into result: inout [Int]) {
        result.removeAll(keepingCapacity: true)
        func near(_ value: Double) -> (Int, Int, Int) { nearestLevels[Int(max(0, min(255, value.rounded())))] }
        let r = near(color.0), g = near(color.1), b = near(color.2)
        for red in [r.0, r.1, r.2] {
            for green in [g.0, g.1, g.2] {
                for blue in [b.0, b.1, b.2] { result.append(36 * red + 6 * green + blue) }
            }
        }
        let mean = (color.0 + color.1 + color.2) / 3
        let grey = min(23, max(0, Int(((mean - 8) / 10).rounded())))
        for step in max(0, grey - 1)...min(23, grey + 1) { result.append(216 + step) }
    }

    /// For each channel value, the cube's three levels nearest it.
    private static let nearestLevels: [(Int, Int, Int)] = (0...255).map { value in
        let levels = XtermPalette.cubeLevels
        let order = levels.indices.sorted { abs(levels[$0] - value) < abs(levels[$1] - value) }
        return (order[0], order[1], order[2])
    }

    /// The `list.count` entries of `subset` nearest `color`, nearest first, into `list`; `distances` is
    /// scratch of the same size.
    private static func nearest(
        to color: (Double, Double, Double), in entries: [(Double, Double, Double)], among subset: [Int], into list: inout [Int], distances: inout [Double]
    ) {
        let count = list.count
        var filled = 0
        for index in subset {
            let d = distance(entries[index], color)
            guard filled < count || d < distances[count - 1] else { continue }
            var position = min(filled, count - 1)
            while position > 0, distances[position - 1] > d {
                distances[position] = distances[position - 1]
                list[position] = list[position - 1]
                position -= 1
            }
            distances[position] = d
            list[position] = index
            filled = min(count, filled + 1)
        }
    }

    /// Each cell takes the entry nearest in luminance first and hue second, and only the hue and
    /// saturation it misses is carried on to its neighbours (Floyd–Steinberg over cells): luminance is
    /// what shows structure, so it is never dithered, while the colour eight entries lose comes back
    /// across neighbouring cells, where the eye averages it. A luminance weight of 30 (on photo 1 in 256
    /// colours, where this was first used: SSIM 0.90, blurred RMSE 0.046; 20 gave 0.85 and 0.044, 50
    /// gave 0.92 and 0.047).
    static func quantiseDiffused(_ cells: SymbolCells, to palette: Palette) -> SymbolCells {
        var result = SymbolCells(columns: cells.columns, rows: cells.rows, indexed: true)
        result.characters = cells.characters
        let width = cells.columns
        var error = [(Double, Double, Double)](repeating: (0, 0, 0), count: cells.columns * cells.rows)
        for row in 0..<cells.rows {
            for column in 0..<width {
                let index = row * width + column
                let carried = error[index]
                func adjusted(_ packed: Int32) -> (Double, Double, Double) {
                    let value = max(0, packed)
                    return (Double(value >> 16 & 255) + carried.0, Double(value >> 8 & 255) + carried.1, Double(value & 255) + carried.2)
                }
                let foreground = adjusted(cells.foreground[index]), background = adjusted(cells.background[index])
                let fg = nearest(foreground, in: palette), bg = nearest(background, in: palette)
                result.foreground[index] = Int32(fg + palette.firstIndex)
                result.background[index] = Int32(bg + palette.firstIndex)
                let coverage = BlockElements.coverage(cells.characters[index])
                let (f, b) = (palette.entries[fg], palette.entries[bg])
                let wanted = mix(foreground, background, coverage)
                let shown = mix((Double(f.0), Double(f.1), Double(f.2)), (Double(b.0), Double(b.1), Double(b.2)), coverage)
                let missed = (wanted.0 - shown.0, wanted.1 - shown.1, wanted.2 - shown.2)
                let luma = 0.299 * missed.0 + 0.587 * missed.1 + 0.114 * missed.2
                let residual = (missed.0 - luma, missed.1 - luma, missed.2 - luma)
                func spread(_ target: Int, _ weight: Double) {
                    error[target].0 += residual.0 * weight
                    error[target].1 += residual.1 * weight
                    error[target].2 += residual.2 * weight
                }
                if column + 1 < width { spread(index + 1, 7.0 / 16) }
                if row + 1 < cells.rows {
                    if column > 0 { spread(index + width - 1, 3.0 / 16) }
                    spread(index + width, 5.0 / 16)
                    if column + 1 < width { spread(index + width + 1, 1.0 / 16) }
                }
            }
        }
        return result
    }

    private static func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ share: Double) -> (Double, Double, Double) {
        (a.0 * share + b.0 * (1 - share), a.1 * share + b.1 * (1 - share), a.2 * share + b.2 * (1 - share))
    }

    /// The entry nearest a colour, its luminance weighed `lumaWeight` times its hue and saturation.
    static func nearest(_ color: (Double, Double, Double), in palette: Palette) -> Int {
        let y = 0.299 * color.0 + 0.587 * color.1 + 0.114 * color.2
        var low = 0, high = palette.lumas.count
        while low < high {
            let middle = (low + high) / 2
            if palette.lumas[middle] < y { low = middle + 1 } else { high = middle }
        }
        var best = palette.byLuma[min(low, palette.lumas.count - 1)], bestDistance = Double.infinity
        func consider(_ position: Int) -> Bool {
            let dy = palette.lumas[position] - y
            guard lumaWeight * dy * dy < bestDistance else { return false }
            let entry = palette.entries[palette.byLuma[position]]
            let cr = Double(entry.0) - color.0 - dy, cg = Double(entry.1) - color.1 - dy, cb = Double(entry.2) - color.2 - dy
            let distance = lumaWeight * dy * dy + cr * cr + cg * cg + cb * cb
            if distance < bestDistance {
                bestDistance = distance
                best = palette.byLuma[position]
            }
            return true
        }
        var up = low, down = low - 1, goingUp = true, goingDown = true
        while goingUp || goingDown {
            if goingUp { goingUp = up < palette.lumas.count && consider(up); up += 1 }
            if goingDown { goingDown = down >= 0 && consider(down); down -= 1 }
        }
        return best
    }
}
