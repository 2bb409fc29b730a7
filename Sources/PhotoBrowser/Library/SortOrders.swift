/// Every photo in each order photopick offers, kept as photos come, change and go: choosing another
/// order, or `G`, is then as quick as `j`, where sorting a million names took seconds.
struct SortOrders: Sendable {
    private(set) var byTime: [Int32] = []
    private(set) var byName: [Int32] = []
    private(set) var bySize: [Int32] = []

    init() {}

    init(byTime: [Int32], byName: [Int32], bySize: [Int32]) {
        self.byTime = byTime
        self.byName = byName
        self.bySize = bySize
    }

    /// The library indices in `key`'s order, deleted photos left out.
    subscript(key: SortKey) -> [Int32] {
        switch key {
        case .captureTime: byTime
        case .filename: byName
        case .size: bySize
        }
    }

    /// Every order of `columns` made from scratch, leaving out `removed`.
    init(_ columns: PhotoColumns, removed: Bitset) {
        let live = (0..<columns.count).lazy.filter { !removed.contains($0) }.map(Int32.init)
        byTime = Self.byCaptureTime(Array(live), columns)
        byName = Array(live).sorted { SortKey.filename.precedes(Int($0), Int($1), columns) }
        bySize = Self.bySize(Array(live), columns)
    }

    /// Gives back the room the orders keep for growth.
    mutating func compact() {
        byTime = byTime.compacted()
        byName = byName.compacted()
        bySize = bySize.compacted()
    }

    /// Adds photos at the places their keys give them.
    mutating func insert(_ indices: [Int], _ columns: PhotoColumns) {
        guard !indices.isEmpty else { return }
        let new = indices.map(Int32.init)
        for key in SortKey.allCases {
            let sorted = new.sorted { key.precedes(Int($0), Int($1), columns) }
            update(key) { Self.merge(sorted, into: &$0) { key.precedes(Int($0), Int($1), columns) } }
        }
    }

    /// Takes photos out: deleted, or about to be inserted again where their new keys put them.
    mutating func remove(_ indices: Set<Int32>) {
        guard !indices.isEmpty else { return }
        for key in SortKey.allCases { update(key) { $0.removeAll { indices.contains($0) } } }
    }

    private mutating func update(_ key: SortKey, _ change: (inout [Int32]) -> Void) {
        switch key {
        case .captureTime: change(&byTime)
        case .filename: change(&byName)
        case .size: change(&bySize)
        }
    }

    /// A whole library in capture-time order, as `SortKey.precedes` orders it, by sorting plain numbers
    /// instead of comparing photos.
    private static func byCaptureTime(_ indices: [Int32], _ columns: PhotoColumns) -> [Int32] {
        var keyed = indices.map { index in
            let time = columns.takenAt[Int(index)]
            return (time: time.isNaN ? Double.infinity : time, id: columns.ids[Int(index)], index: index)
        }
        keyed.sort { ($0.time, $0.id) < ($1.time, $1.id) }
        return keyed.map(\.index)
    }

    private static func bySize(_ indices: [Int32], _ columns: PhotoColumns) -> [Int32] {
        var keyed = indices.map { (bytes: -columns.bytes[Int($0)], id: columns.ids[Int($0)], index: $0) }
        keyed.sort { ($0.bytes, $0.id) < ($1.bytes, $1.id) }
        return keyed.map(\.index)
    }

    /// Merges sorted `items` into sorted `base`, finding each one's place by binary search from where
    /// the last one went: O(m log n) comparisons, and a plain append when they all go at the end.
    static func merge(_ items: [Int32], into base: inout [Int32], by precedes: (Int32, Int32) -> Bool) {
        guard let first = items.first else { return }
        if base.isEmpty || !precedes(first, base[base.count - 1]) {
            base.append(contentsOf: items)
            return
        }
        var result: [Int32] = []
        result.reserveCapacity(base.count + items.count)
        var from = 0
        for item in items {
            let low = lowerBound(of: item, in: base, from: from, by: precedes)
            result.append(contentsOf: base[from..<low])
            result.append(item)
            from = low
        }
        result.append(contentsOf: base[from...])
        base = result
    }

    /// The first position in `sorted`, at or after `start`, whose element does not precede `target`.
    static func lowerBound(of target: Int32, in sorted: [Int32], from start: Int = 0, by precedes: (Int32, Int32) -> Bool) -> Int {
        var low = start, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if precedes(sorted[middle], target) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension SortKey {
    /// Whether the photo at library index `a` sorts before the one at `b`; ties go by id, so every order
    /// is total.
    func precedes(_ a: Int, _ b: Int, _ columns: PhotoColumns) -> Bool {
        switch self {
        case .captureTime:
            let first = columns.takenAt[a], second = columns.takenAt[b]
            if first.isNaN != second.isNaN { return second.isNaN }
            if !first.isNaN, first != second { return first < second }
        case .filename:
            let order = columns.filenames.withBytes(a) { left in columns.filenames.withBytes(b) { NaturalOrder.compare(left, $0) } }
            if order != 0 { return order < 0 }
        case .size:
            if columns.bytes[a] != columns.bytes[b] { return columns.bytes[a] > columns.bytes[b] }
        }
        return columns.ids[a] < columns.ids[b]
    }
}
