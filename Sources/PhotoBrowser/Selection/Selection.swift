/// The chosen photos, by library index, as a bit set: membership, toggling and counting are O(1), and
/// the selection outlives any change of filter or sort.
public struct Selection: Sendable, Equatable {
    /// The selected library indices.
    private(set) var bits = Bitset()
    /// How many photos are selected.
    public private(set) var count = 0
    /// Their combined size in bytes.
    public private(set) var totalBytes: Int64 = 0

    /// An empty selection.
    init() {}

    /// Whether nothing is selected.
    public var isEmpty: Bool { count == 0 }

    /// Whether the photo at a library index is selected.
    public func contains(_ index: Int) -> Bool {
        bits.contains(index)
    }

    /// Selects or deselects one photo; `bytes` is its size, for the running total.
    mutating func set(_ index: Int, _ isSelected: Bool, bytes: Int64) {
        guard isSelected ? bits.insert(index) : bits.remove(index) else { return }
        count += isSelected ? 1 : -1
        totalBytes += isSelected ? bytes : -bytes
    }

    /// Selects every photo of `indices` (the list as filtered), in one pass over them.
    mutating func insert(_ indices: [Int32], bytes: [Int64]) {
        for index in indices where bits.insert(Int(index)) {
            count += 1
            totalBytes += bytes[Int(index)]
        }
    }

    mutating func removeAll() {
        self = Selection()
    }

    /// The selected library indices, in index order.
    public var indices: [Int] { bits.indices }
}
