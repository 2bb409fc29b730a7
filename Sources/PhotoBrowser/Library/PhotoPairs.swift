/// RAW+JPEG pairs: the RAW a camera wrote and the JPEG or HEIC it wrote of the same frame beside it,
/// which a photographer treats as one shot (Photo Mechanic and Lightroom do). Two photos pair when one is
/// RAW and the other JPEG or HEIC, one camera (make and model) took both, their names are the same but
/// for the extension (letter case aside) and they were taken within a second of each other. The RAW
/// stands for the pair in the list; the other is its companion.
///
/// Kept beside the photos as the orders are, and put right for the photos an event added, changed or
/// removed: a pair's two photos sit next to each other in capture-time order, so each photo looks only
/// at its neighbours within the second, and a million photos pair in one pass over that order.
struct PhotoPairs: Sendable {
    /// Each library index's partner; -1 for none.
    private var partners: [Int32] = []
    /// The companions: the JPEG or HEIC of each pair.
    private var companions = Bitset()
    /// How many pairs there are.
    private(set) var count = 0

    /// Seconds between a pair's capture times at most.
    static let window = 1.0

    init() {}

    /// The partner of the photo at `index`, if it is one of a pair.
    func partner(of index: Int) -> Int? {
        guard index < partners.count, partners[index] >= 0 else { return nil }
        return Int(partners[index])
    }

    /// Whether the photo at `index` is the JPEG or HEIC of a pair, which its RAW stands for.
    func isCompanion(_ index: Int) -> Bool {
        companions.contains(index)
    }

    /// Whether the photo at `index` is the companion of a pair not in `open` (RAWs of the pairs opened):
    /// one its RAW's row stands for.
    func isFolded(_ index: Int, open: Set<Int32>) -> Bool {
        isCompanion(index) && (open.isEmpty || !open.contains(Int32(head(of: index))))
    }

    /// The RAW of the pair the photo at `index` is in, or `index` itself.
    func head(of index: Int) -> Int {
        isCompanion(index) ? partner(of: index) ?? index : index
    }

    /// How many shots `indices` are: a pair's two files count once.
    func shots(_ indices: [Int]) -> Int {
        guard count > 0 else { return indices.count }
        let chosen = Bitset(indices)
        return indices.count { !isCompanion($0) || !chosen.contains(head(of: $0)) }
    }

    /// Gives back the room `partners` keeps for growth, as the columns do after a walk.
    mutating func compact() {
        partners = partners.compacted()
    }

    /// Takes the companions of closed pairs out of `rows`: the RAW's row stands for its pair. `open`
    /// holds the RAWs of the pairs opened.
    func fold(_ rows: inout Bitset, keepingOpen open: Set<Int32>) {
        guard count > 0 else { return }
        let before = open.isEmpty ? nil : rows
        rows.subtract(companions)
        for raw in open {
            if let companion = partner(of: Int(raw)), before?.contains(companion) == true { rows.insert(companion) }
        }
    }

    /// Puts both photos of a pair in `rows` when either is: a pair is listed whole or not at all.
    func joinPartners(_ rows: inout Bitset) {
        guard count > 0 else { return }
        companions.forEach { companion in
            let raw = Int(partners[companion])
            if rows.contains(companion) != rows.contains(raw) {
                rows.insert(companion)
                rows.insert(raw)
            }
        }
    }

    // MARK: - Pairing

    /// Pairs the photos at `touched` afresh (added, changed or removed since the last time), each with
    /// its neighbours in `byTime` (the library's capture-time order). Many at once pair in one pass.
    mutating func update(_ touched: some Collection<Int>, columns: PhotoColumns, byTime: [Int32], removed: Bitset) {
        if partners.count < columns.count { partners += repeatElement(-1, count: columns.count - partners.count) }
        guard !touched.isEmpty else { return }
        for index in touched { unpair(index) }
        let kinds = FileKinds(columns)
        if touched.count * 8 >= columns.count {
            for position in byTime.indices where kinds.of(Int(byTime[position])) == .raw {
                pairUp(at: position, byTime: byTime, columns: columns, kinds: kinds, removed: removed)
            }
            return
        }
        let precedes = { (a: Int32, b: Int32) in SortKey.captureTime.precedes(Int(a), Int(b), columns) }
        for index in touched where !removed.contains(index) && !columns.takenAt[index].isNaN {
            let position = SortOrders.lowerBound(of: Int32(index), in: byTime, by: precedes)
            guard position < byTime.count, byTime[position] == Int32(index) else { continue }
            if kinds.of(index) == .raw {
                pairUp(at: position, byTime: byTime, columns: columns, kinds: kinds, removed: removed)
            } else if kinds.of(index) == .rendered, let raw = closest(to: position, byTime: byTime, columns: columns, kinds: kinds, removed: removed) {
                // A JPEG that came after its RAW: the RAW looks from its own place.
                let rawPosition = SortOrders.lowerBound(of: Int32(raw), in: byTime, by: precedes)
                pairUp(at: rawPosition, byTime: byTime, columns: columns, kinds: kinds, removed: removed)
            }
        }
    }

    /// Pairs the RAW at `position` in `byTime` with the closest JPEG or HEIC that fits, if any.
    private mutating func pairUp(at position: Int, byTime: [Int32], columns: PhotoColumns, kinds: FileKinds, removed: Bitset) {
        let raw = Int(byTime[position])
        guard partners[raw] < 0, !removed.contains(raw),
              let other = closest(to: position, byTime: byTime, columns: columns, kinds: kinds, removed: removed) else { return }
        partners[raw] = Int32(other)
        partners[other] = Int32(raw)
        companions.insert(other)
        count += 1
    }

    /// The unpaired photo of the other kind nearest in time to the one at `position` that pairs with it.
    private func closest(to position: Int, byTime: [Int32], columns: PhotoColumns, kinds: FileKinds, removed: Bitset) -> Int? {
        let index = Int(byTime[position])
        let time = columns.takenAt[index]
        let wanted: FileKind = kinds.of(index) == .raw ? .rendered : .raw
        guard !time.isNaN, columns.cameraMake[index] != 0 || columns.cameraModel[index] != 0 else { return nil }
        var best: Int?, bestGap = Double.infinity
        for step in [-1, 1] {
            var at = position + step
            while at >= 0, at < byTime.count {
                let other = Int(byTime[at])
                let gap = abs(columns.takenAt[other] - time)
                // NaN (no time) sorts last and fails this too.
                guard gap <= Self.window else { break }
                if gap < bestGap, partners[other] < 0, kinds.of(other) == wanted, !removed.contains(other),
                   columns.cameraMake[other] == columns.cameraMake[index], columns.cameraModel[other] == columns.cameraModel[index],
                   Self.sameStem(columns.filenames, index, other) {
                    (best, bestGap) = (other, gap)
                }
                at += step
            }
        }
        return best
    }

    private mutating func unpair(_ index: Int) {
        guard index < partners.count, partners[index] >= 0 else { return }
        let other = Int(partners[index])
        partners[index] = -1
        partners[other] = -1
        companions.remove(index)
        companions.remove(other)
        count -= 1
    }

    /// Whether two names are the same up to their last dot, letter case aside (`IMG_0001.CR3`, `img_0001.jpg`).
    static func sameStem(_ names: TextColumn, _ a: Int, _ b: Int) -> Bool {
        names.withBytes(a) { left in
            names.withBytes(b) { right in
                let leftStem = stemLength(left), rightStem = stemLength(right)
                guard leftStem == rightStem, leftStem > 0 else { return false }
                for offset in 0..<leftStem where lower(left[offset]) != lower(right[offset]) { return false }
                return true
            }
        }
    }

    private static func stemLength(_ name: UnsafeBufferPointer<UInt8>) -> Int {
        name.lastIndex(of: UInt8(ascii: ".")) ?? name.count
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }
}

/// What a photo's file is, for pairing: a camera RAW, a JPEG or HEIC a camera renders, or another kind.
enum FileKind: Sendable, Equatable {
    case raw, rendered, other

    /// Camera RAW formats by extension (LibRaw's common ones).
    static let rawExtensions: Set<String> = [
        "dng", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "raf", "orf", "rw2", "rwl", "pef", "srw", "x3f", "3fr", "iiq", "erf",
        "mef", "mos", "kdc", "dcr",
    ]
    static let renderedExtensions: Set<String> = ["jpg", "jpeg", "jpe", "heic", "heif", "hif"]

    /// By the name's extension, else by the MIME type (`image/x-adobe-dng`, `image/x-canon-cr3`, `image/heic`).
    init(extension: String, mimeType: String?) {
        let lowered = `extension`.lowercased()
        if Self.rawExtensions.contains(lowered) {
            self = .raw
        } else if Self.renderedExtensions.contains(lowered) {
            self = .rendered
        } else {
            self = Self.kind(mimeType: mimeType?.lowercased() ?? "")
        }
    }

    private static func kind(mimeType: String) -> FileKind {
        if ["image/jpeg", "image/heic", "image/heif"].contains(mimeType) { return .rendered }
        let raw = ["image/x-adobe-dng", "image/dng", "image/x-dcraw", "image/x-raw"]
        if raw.contains(mimeType) || rawExtensions.contains(where: { mimeType.hasPrefix("image/x-") && mimeType.hasSuffix("-\($0)") }) {
            return .raw
        }
        return .other
    }
}

/// Each photo's kind, read from its name's extension and its MIME type's pool number. An extension is
/// packed into a number (four letters at most), so a million names are read without a string each.
private struct FileKinds {
    let columns: PhotoColumns
    /// The kind each MIME type would give a name with no known extension, by pool number.
    private let byMime: [FileKind]
    private static let raw = Set(FileKind.rawExtensions.compactMap { pack(Array($0.utf8)[...]) })
    private static let rendered = Set(FileKind.renderedExtensions.compactMap { pack(Array($0.utf8)[...]) })

    init(_ columns: PhotoColumns) {
        self.columns = columns
        byMime = columns.pool.strings.map { FileKind(extension: "", mimeType: $0) }
    }

    func of(_ index: Int) -> FileKind {
        let code = columns.filenames.withBytes(index) { name -> UInt32? in
            guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return nil }
            return Self.pack(name[(dot + 1)...])
        }
        if let code {
            if Self.raw.contains(code) { return .raw }
            if Self.rendered.contains(code) { return .rendered }
        }
        let mime = Int(columns.mimeType[index])
        return mime < byMime.count ? byMime[mime] : .other
    }

    /// One to four bytes, lower-cased, as a number; nil for longer or empty.
    private static func pack<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32? {
        guard (1...4).contains(bytes.count) else { return nil }
        return bytes.reduce(0) { $0 << 8 | UInt32($1 >= 0x41 && $1 <= 0x5A ? $1 + 0x20 : $1) }
    }
}
