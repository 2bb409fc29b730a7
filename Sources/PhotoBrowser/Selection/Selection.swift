/// The chosen photos, by library index, as a bit set: membership, toggling and counting are O(1), and
/// the selection outlives any change of filter or sort.
public struct Selection: Sendable, Equatable {
    private var words: [UInt64] = []
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
        let word = index >> 6
        return word < words.count && words[word] & (1 << UInt64(index & 63)) != 0
    }

    /// Selects or deselects one photo; `bytes` is its size, for the running total.
    mutating func set(_ index: Int, _ isSelected: Bool, bytes: Int64) {
        guard contains(index) != isSelected else { return }
        let word = index >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        words[word] ^= 1 << UInt64(index & 63)
        count += isSelected ? 1 : -1
        totalBytes += isSelected ? bytes : -bytes
    }

    mutating func removeAll() {
        self = Selection()
    }

    /// The selected library indices, in index order.
    public var indices: [Int] {
        var result: [Int] = []
        result.reserveCapacity(count)
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                result.append(wordIndex << 6 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
