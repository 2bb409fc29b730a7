/// Which photos carry each tag: per tag, a set of library indices. A tag on few photos keeps their
/// indices sorted (4 bytes each), one on many a bit per photo, whichever is smaller; so a library of a
/// million photos with a thousand keywords stays small, and tagging a selection of a million, counting
/// a tag or filtering by one goes a word of 64 photos at a time.
struct TagSets: Sendable {
    /// One tag's photos.
    enum Members: Sendable, Equatable {
        case sparse([Int32])
        case dense(Bitset, count: Int)

        var count: Int {
            switch self {
            case .sparse(let indices): indices.count
            case .dense(_, let count): count
            }
        }

        func contains(_ index: Int) -> Bool {
            switch self {
            case .sparse(let indices):
                let position = Self.lowerBound(Int32(index), in: indices)
                return position < indices.count && indices[position] == Int32(index)
            case .dense(let bits, _): return bits.contains(index)
            }
        }

        /// The members as bits.
        var bitset: Bitset {
            switch self {
            case .sparse(let indices): Bitset(indices.lazy.map(Int.init))
            case .dense(let bits, _): bits
            }
        }

        static func lowerBound(_ value: Int32, in sorted: [Int32]) -> Int {
            var low = 0, high = sorted.count
            while low < high {
                let middle = (low + high) / 2
                if sorted[middle] < value { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }

    private var members: [Int: Members] = [:]
    /// How many library indices there are: what a dense set's size is measured against.
    private(set) var capacity = 0

    /// The tags some photo carries.
    var tagIDs: Dictionary<Int, Members>.Keys { members.keys }

    /// The stored sets, for a snapshot.
    var all: [Int: Members] { members }

    init() {}

    init(members: [Int: Members], capacity: Int) {
        self.members = members
        self.capacity = capacity
    }

    /// Makes room for indices up to `count`.
    mutating func grow(to count: Int) {
        capacity = max(capacity, count)
    }

    func count(of tagID: Int) -> Int { members[tagID]?.count ?? 0 }

    func contains(_ tagID: Int, _ index: Int) -> Bool { members[tagID]?.contains(index) ?? false }

    /// The photos carrying `tagID`, as bits.
    func photos(with tagID: Int) -> Bitset { members[tagID]?.bitset ?? Bitset() }

    /// The tags of the photo at `index`, by increasing id.
    func tags(of index: Int) -> [Int] {
        members.compactMap { $0.value.contains(index) ? $0.key : nil }.sorted()
    }

    /// Puts the tag on the photo or takes it off; true when that changed anything.
    @discardableResult
    mutating func set(_ tagID: Int, _ index: Int, _ carries: Bool) -> Bool {
        var set = members.removeValue(forKey: tagID) ?? .sparse([])
        defer { members[tagID] = set.count == 0 ? nil : set }
        switch set {
        case .sparse(var indices):
            let position = Members.lowerBound(Int32(index), in: indices)
            let present = position < indices.count && indices[position] == Int32(index)
            guard present != carries else { return false }
            set = .sparse([])  // lets `indices` be changed in place
            if carries { indices.insert(Int32(index), at: position) } else { indices.remove(at: position) }
            set = Self.compact(.sparse(indices), capacity: capacity)
        case .dense(var bits, let count):
            set = .sparse([])
            let changed = carries ? bits.insert(index) : bits.remove(index)
            guard changed else {
                set = .dense(bits, count: count)
                return false
            }
            set = Self.compact(.dense(bits, count: count + (carries ? 1 : -1)), capacity: capacity)
        }
        return true
    }

    /// Puts the tag on every photo of `photos`, or takes it off them; returns the photos it changed.
    @discardableResult
    mutating func set(_ tagID: Int, on photos: Bitset, _ carries: Bool) -> Bitset {
        let before = members[tagID]?.bitset ?? Bitset()
        var after = before
        var changed = photos
        if carries {
            changed.subtract(before)
            after.formUnion(photos)
        } else {
            changed.formIntersection(before)
            after.subtract(photos)
        }
        let count = after.count
        members[tagID] = count == 0 ? nil : Self.compact(.dense(after, count: count), capacity: capacity)
        return changed
    }

    /// Puts every photo carrying `old` under `new` instead (a tag made from its placeholder).
    mutating func rename(_ old: Int, to new: Int) {
        guard let moved = members.removeValue(forKey: old) else { return }
        set(new, on: moved.bitset, true)
    }

    /// Takes a tag off every photo; returns how many carried it.
    mutating func removeTag(_ tagID: Int) -> Int {
        members.removeValue(forKey: tagID)?.count ?? 0
    }

    /// Takes every tag off the photo at `index`: it was deleted.
    mutating func removePhoto(_ index: Int) {
        for tagID in tags(of: index) { set(tagID, index, false) }
    }

    /// The cheaper form of a set: sorted indices when they take fewer bytes than a bit per photo.
    private static func compact(_ set: Members, capacity: Int) -> Members {
        let denseBytes = (capacity + 7) / 8
        switch set {
        case .sparse(let indices) where indices.count * 4 > denseBytes * 2:
            return .dense(Bitset(indices.lazy.map(Int.init)), count: indices.count)
        case .dense(let bits, let count) where count * 4 * 2 < denseBytes:
            var indices: [Int32] = []
            indices.reserveCapacity(count)
            bits.forEach { indices.append(Int32($0)) }
            return .sparse(indices)
        default:
            return set
        }
    }
}
