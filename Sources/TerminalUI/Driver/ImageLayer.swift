import PhotoBrowser
import PhotoImaging
import PhotoPickSettings

/// Which images are on the terminal, and the bytes that turn that into what a frame shows. Pure, so
/// its plans are tested without a terminal: the driver repaints the rectangles it names through
/// ncurses, then writes its bytes in one go.
struct ImageLayer {
    /// An image as shown: a photo at one decoded size, fitted or a loupe's view.
    struct Key: Hashable {
        let photoID: Int
        let box: PixelSize
        var content = 0

        init(photoID: Int, box: PixelSize, content: Int = 0) {
            self.photoID = photoID
            self.box = box
            self.content = content
        }

        init(_ placement: ImagePlacement) {
            self.init(photoID: placement.photoID, box: placement.box, content: placement.content)
        }
    }

    /// What one frame needs done.
    struct Plan: Equatable {
        /// Cells whose pixels must go; ncurses repaints them (it believes they are already blank).
        var repaint: [Rect] = []
        /// Image commands, in order, each unit whole; a unit that moves the cursor saves and restores it.
        var jobs: [WireJob] = []
        /// The images placed this frame, for the log.
        var placed: [ImagePlacement] = []
        /// Placeholder images already in the terminal that this frame shows where the last did not: no
        /// bytes go, and the log says where they are.
        var shownAgain: [ImagePlacement] = []

        /// Every byte, as one write would send them.
        var bytes: [UInt8] { jobs.flatMap { $0.units.flatMap(\.bytes) } }
    }

    let mode: GraphicsMode
    let inTmux: Bool
    /// kitty through Unicode placeholders, the ids made from the photo in these colours; nil places directly.
    let placeholders: Theme.Depth?
    /// The kitty pixels the terminal may keep for images not on screen, before the oldest are freed.
    let kittyByteLimit: Int

    private var shown: [Key: Rect] = [:]
    /// kitty: images sent, by id, with their pixel bytes and when each was last placed.
    private var kittyImages: [Key: (id: UInt32, bytes: Int, used: Int)] = [:]
    /// kitty: the reduced image sent ahead of each whole one, by the whole one's key, until freed.
    private var reducedIDs: [Key: UInt32] = [:]
    /// kitty: reduced images no longer tracked that the next plan frees.
    private var orphans: [UInt32] = []
    private var nextID: UInt32 = 1
    /// Shared memory objects named so far (0 is the probe's).
    private var sharedCount = 0
    private var frameNumber = 0
    /// How long the whole image waits after a reduced one, for the cursor to rest.
    static let rest: Duration = .milliseconds(150)

    /// Sixel: a cell's height in pixels, to cut images into strips that end on a cell's edge; nil sends
    /// each image whole (the cell's size unknown).
    let cellHeight: Int?

    init(mode: GraphicsMode, inTmux: Bool = false, placeholders: Theme.Depth? = nil, kittyByteLimit: Int = 160 << 20, cell: PixelSize? = nil) {
        self.mode = mode
        self.inTmux = inTmux
        self.placeholders = mode == .kitty ? placeholders : nil
        self.kittyByteLimit = kittyByteLimit
        self.cellHeight = cell.map(\.height)
    }

    /// The least multiple of both six and the cell's height, taken as many times as make 48 pixels or
    /// more: 60 pixels for cells 20 high, 102 for 17. Small, so a strip is well under the window the
    /// writer keeps beyond the link's round trip, and the link stays busy between strips.
    static func stripHeight(cellHeight: Int) -> Int? {
        guard cellHeight > 0 else { return nil }
        var common = cellHeight
        while common % 6 != 0 { common += cellHeight }
        return common * max(1, (48 + common - 1) / common)
    }

    /// The plan that takes the terminal from the last frame's images to `placements`. With
    /// `screenCleared` the terminal erased everything (a resize, `fg`, the first frame), so every
    /// image is placed again; the rows of the screen end at `height`, and no image may reach the last.
    /// With `progressive` (a slow link), an image with a reduced version sends that first, and the whole
    /// one once the cursor has rested.
    mutating func plan(_ placements: [ImagePlacement], screenCleared: Bool, height: Int, progressive: Bool = false) -> Plan {
        frameNumber += 1
        if screenCleared { shown = [:] }
        if let placeholders { return planPlaceholders(placements, depth: placeholders) }
        var wanted: [Key: ImagePlacement] = [:]
        for placement in placements where placement.payload != nil && placement.rect.maxY < height && placement.rect.y >= 0 {
            wanted[Key(placement)] = placement
        }
        var plan = Plan()
        var hides: [UInt8] = orphans.flatMap { KittyCommands.free(id: $0) }
        orphans = []
        for (key, rect) in shown where wanted[key]?.rect != rect {
            switch mode {
            case .kitty:
                if wanted[key] == nil, let image = kittyImages[key] { hides += KittyCommands.hide(id: image.id) }
                if let reduced = reducedIDs.removeValue(forKey: key) { hides += KittyCommands.free(id: reduced) }
            case .sixel, .iterm:
                plan.repaint.append(rect)
            case .symbols, .auto:
                break
            }
        }
        if !hides.isEmpty { plan.jobs.append(.control(hides)) }
        let added = wanted.values.filter { shown[Key($0)] != $0.rect }
            .sorted { ($0.rect.y, $0.rect.x) < ($1.rect.y, $1.rect.x) }
        for placement in added where mode != .symbols && mode != .auto {
            guard let payload = placement.payload else { continue }
            let key = Key(placement)
            if progressive, let reduced = payload.reduced, mode == .kitty ? kittyImages[key] == nil : true {
                plan.jobs += progressiveJobs(placement, payload: payload, reduced: reduced)
                plan.placed.append(placement)
                continue
            }
            var units: [WireUnit] = []
            switch mode {
            case .kitty:
                let id: UInt32
                if let image = kittyImages[key] {
                    id = image.id
                } else {
                    id = takeID()
                    units += transmission(payload, id: id)
                }
                kittyImages[key] = (id, payload.size.width * payload.size.height * 3, frameNumber)
                units.append(Self.placed(at: placement.rect, KittyCommands.place(id: id)))
            case .sixel:
                units += sixelStrips(payload, at: placement.rect)
            case .iterm:
                units.append(Self.placed(at: placement.rect, ITermImage.inline(base64: payload.bytes, columns: placement.rect.width, rows: placement.rect.height)))
            case .symbols, .auto:
                continue
            }
            plan.jobs.append(WireJob(image: key, units: units, placement: placement))
            plan.placed.append(placement)
        }
        for placement in wanted.values { kittyImages[Key(placement)]?.used = frameNumber }
        let freed = freeOldKittyImages(keeping: Set(wanted.keys))
        if !freed.isEmpty { plan.jobs.append(.control(freed)) }
        shown = wanted.mapValues(\.rect)
        return plan
    }

    /// The reduced version's job, then the whole one's, which rests first and, in kitty, frees the
    /// reduced image once it has placed its own.
    private mutating func progressiveJobs(_ placement: ImagePlacement, payload: EncodedImage, reduced: ReducedImage) -> [WireJob] {
        let key = Key(placement), rect = placement.rect
        var first = WireJob(image: key, units: [], placement: placement, stage: .reduced)
        var whole = WireJob(image: key, units: [], placement: placement, stage: .wholeAfterReduced, rest: Self.rest)
        switch mode {
        case .kitty:
            let small = takeID(), id = takeID()
            first.units = KittyCommands.transmitUnits(id: small, width: reduced.size.width, height: reduced.size.height, base64: reduced.bytes, png: reduced.isPNG)
            first.units.append(Self.placed(at: rect, KittyCommands.place(id: small, cells: (rect.width, rect.height))))
            whole.units = transmission(payload, id: id)
            whole.units.append(Self.placed(at: rect, KittyCommands.place(id: id)))
            whole.units.append(WireUnit(bytes: KittyCommands.free(id: small), kind: .control))
            reducedIDs[key] = small
            kittyImages[key] = (id, payload.size.width * payload.size.height * 3, frameNumber)
        case .iterm:
            first.units = [Self.placed(at: rect, ITermImage.inline(base64: reduced.bytes, columns: rect.width, rows: rect.height))]
            whole.units = [Self.placed(at: rect, ITermImage.inline(base64: payload.bytes, columns: rect.width, rows: rect.height))]
        case .sixel, .symbols, .auto:
            return []
        }
        return [first, whole]
    }

    /// A sixel image as units of its strips (cut when it was made), each at its own cell row; whole when
    /// it has none or this layer does not know the cell's height.
    private func sixelStrips(_ payload: EncodedImage, at rect: Rect) -> [WireUnit] {
        guard let cell = cellHeight, let height = Self.stripHeight(cellHeight: cell), !payload.strips.isEmpty else {
            return [Self.placed(at: rect, payload.bytes)]
        }
        let rows = height / cell
        return payload.strips.enumerated().map { index, strip in
            let row = Rect(x: rect.x, y: rect.y + index * rows, width: rect.width, height: rows)
            return WireUnit(
                head: Self.saveCursor + Self.moveCursor(to: row) + strip.head, body: payload.bytes[strip.body],
                tail: SixelStrips.terminator + Self.restoreCursor, kind: .place
            )
        }
    }

    /// kitty: the units that send `payload` as image `id`, through shared memory or in base64 chunks.
    private mutating func transmission(_ payload: EncodedImage, id: UInt32) -> [WireUnit] {
        if payload.isShared {
            sharedCount += 1
            let name = SharedMemory.name(sharedCount)
            let command = KittyCommands.transmitShared(id: id, width: payload.size.width, height: payload.size.height, name: name, size: payload.bytes.count)
            return [WireUnit(bytes: command, kind: .transmit, shared: SharedPixels(name: name, pixels: payload.bytes, size: payload.size, id: id))]
        }
        return KittyCommands.transmitUnits(id: id, width: payload.size.width, height: payload.size.height, base64: payload.bytes, png: payload.isPNG)
    }

    private mutating func takeID() -> UInt32 {
        defer { nextID = nextID == UInt32.max ? 1 : nextID + 1 }
        return nextID
    }

    /// Takes back what a newer frame dropped before it reached the terminal: those images are not on
    /// screen, and kitty images never sent are not in the terminal.
    mutating func forget(_ superseded: Superseded) {
        for key in superseded.notShown {
            shown[key] = nil
            // A reduced image sent but never placed (or freed by the whole one's last unit, which
            // always goes): freeing it again costs nothing.
            if let reduced = reducedIDs.removeValue(forKey: key) { orphans.append(reduced) }
        }
        for key in superseded.notSent { kittyImages[key] = nil }
    }

    /// A unit that draws at `rect`'s top-left cell and puts the cursor back where it was.
    private static func placed(at rect: Rect, _ command: [UInt8]) -> WireUnit {
        WireUnit(bytes: saveCursor + moveCursor(to: rect) + command + restoreCursor, kind: .place)
    }

    /// Placeholders: each image is sent once, placed virtually over its cells; the cells themselves,
    /// drawn by the view, show and hide it, so nothing is placed, hidden or repainted per frame.
    private mutating func planPlaceholders(_ placements: [ImagePlacement], depth: Theme.Depth) -> Plan {
        var plan = Plan()
        for placement in placements {
            guard let payload = placement.payload else { continue }
            let key = Key(placement)
            let id = KittyPlaceholders.id(photoID: placement.photoID, box: placement.box, content: placement.content, colors: depth)
            if kittyImages[key] == nil {
                // Ids are hashes (16 bits in 256 colours): an image sent under an id replaces another's in
                // the terminal, so that other is no longer there to be shown again or freed.
                for (other, image) in kittyImages where image.id == id { kittyImages[other] = nil }
                let units = KittyCommands.transmitUnits(id: id, width: payload.size.width, height: payload.size.height, base64: payload.bytes,
                                                        png: payload.isPNG, virtual: (placement.rect.width, placement.rect.height), tmux: inTmux)
                plan.jobs.append(WireJob(image: key, units: units, placement: placement))
                plan.placed.append(placement)
            } else if shown[key] != placement.rect {
                plan.shownAgain.append(placement)
            }
            kittyImages[key] = (id, payload.size.width * payload.size.height * 3, frameNumber)
        }
        shown = Dictionary(placements.filter { $0.payload != nil }.map { (Key($0), $0.rect) }) { first, _ in first }
        let freed = freeOldKittyImages(keeping: Set(placements.map { Key($0) }))
        if !freed.isEmpty { plan.jobs.append(.control(inTmux ? TmuxPassthrough.wrap(freed) : freed)) }
        return plan
    }

    /// Bytes that remove every image: before the terminal is given back (quit, Ctrl-Z). Sixel and
    /// iTerm2 pixels go with the alternate screen ncurses leaves; kitty keeps images until told.
    mutating func clearAll() -> [UInt8] {
        shown = [:]
        let hadReduced = !reducedIDs.isEmpty || !orphans.isEmpty
        reducedIDs = [:]
        orphans = []
        guard mode == .kitty, !kittyImages.isEmpty || hadReduced else { return [] }
        kittyImages = [:]
        return inTmux ? TmuxPassthrough.wrap(KittyCommands.freeAll) : KittyCommands.freeAll
    }

    /// The images on screen now, for tests.
    var shownRects: [Key: Rect] { shown }

    private mutating func freeOldKittyImages(keeping onScreen: Set<Key>) -> [UInt8] {
        var total = kittyImages.values.reduce(0) { $0 + $1.bytes }
        guard total > kittyByteLimit else { return [] }
        var commands: [UInt8] = []
        for (key, image) in kittyImages.sorted(by: { $0.value.used < $1.value.used }) where !onScreen.contains(key) {
            commands += KittyCommands.free(id: image.id)
            kittyImages[key] = nil
            total -= image.bytes
            if total <= kittyByteLimit { break }
        }
        return commands
    }

    static let saveCursor: [UInt8] = [0x1B, UInt8(ascii: "7")]
    static let restoreCursor: [UInt8] = [0x1B, UInt8(ascii: "8")]

    /// CUP to the rectangle's top-left cell.
    static func moveCursor(to rect: Rect) -> [UInt8] {
        Array("\u{1B}[\(rect.y + 1);\(rect.x + 1)H".utf8)
    }
}
