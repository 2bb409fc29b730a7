/// A set of library indices as bits: membership and a change are O(1), and a set of a million photos is
/// 125 KB that unions, intersections and counts go through a word (64 photos) at a time.
struct Bitset: Sendable, Equatable {
    private(set) var words: [UInt64] = []

    /// An empty set.
    init() {}

    /// A set of `count` bits, all set or all clear.
    init(count: Int, filled: Bool) {
        words = Array(repeating: filled ? ~0 : 0, count: (count + 63) >> 6)
        if filled, count & 63 != 0 { words[words.count - 1] = (1 << UInt64(count & 63)) - 1 }
    }

    /// The set whose bits are `words`, 64 indices to a word.
    init(words: [UInt64]) {
        self.words = words
    }

    /// The set of `indices`.
    init<Indices: Sequence<Int>>(_ indices: Indices) {
        for index in indices { insert(index) }
    }

    /// Whether `index` is in the set.
    func contains(_ index: Int) -> Bool {
        let word = index >> 6
        return word < words.count && words[word] & (1 << UInt64(index & 63)) != 0
    }

    /// Adds `index`; true when it was not there.
    @discardableResult
    mutating func insert(_ index: Int) -> Bool {
        let word = index >> 6
        if word >= words.count { words.append(contentsOf: repeatElement(0, count: word - words.count + 1)) }
        let bit: UInt64 = 1 << UInt64(index & 63)
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }

    /// Takes `index` out; true when it was there.
    @discardableResult
    mutating func remove(_ index: Int) -> Bool {
        let word = index >> 6
        guard word < words.count else { return false }
        let bit: UInt64 = 1 << UInt64(index & 63)
        guard words[word] & bit != 0 else { return false }
        words[word] &= ~bit
        return true
    }

    /// How many indices are in the set.
    var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

    /// Whether no index is in the set.
    var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// Adds every index of `other`.
    mutating func formUnion(_ other: Bitset) {
        if other.words.count > words.count { words.append(contentsOf: repeatElement(0, count: other.words.count - words.count)) }
        other.words.withUnsafeBufferPointer { theirs in
            words.withUnsafeMutableBufferPointer { mine in
                for word in theirs.indices { mine[word] |= theirs[word] }
            }
        }
    }

    /// Keeps only the indices `other` holds too.
    mutating func formIntersection(_ other: Bitset) {
        if words.count > other.words.count { words.removeLast(words.count - other.words.count) }
        other.words.withUnsafeBufferPointer { theirs in
            words.withUnsafeMutableBufferPointer { mine in
                for word in mine.indices { mine[word] &= theirs[word] }
            }
        }
    }

    /// Takes out every index of `other`.
    mutating func subtract(_ other: Bitset) {
        other.words.withUnsafeBufferPointer { theirs in
            words.withUnsafeMutableBufferPointer { mine in
                for word in 0..<min(mine.count, theirs.count) { mine[word] &= ~theirs[word] }
            }
        }
    }

    /// Keeps the indices that pass `test`, asking it only about indices in the set: a narrow set is
    /// refined in a few words' time, where testing every photo would read the whole column.
    mutating func keep(where test: (Int) -> Bool) {
        withoutActuallyEscaping(test) { keep(where: ClosureRowTest(test: $0)) }
    }

    /// `keep(where:)`, compiled for each kind of test so the test is inlined in the loop.
    mutating func keep<Test: RowTest>(where test: Test) {
        words.withUnsafeMutableBufferPointer { words in
            for word in words.indices where words[word] != 0 {
                var bits = words[word], kept = bits
                while bits != 0 {
                    let bit = bits.trailingZeroBitCount
                    if !test(word << 6 + bit) { kept &= ~(1 << UInt64(bit)) }
                    bits &= bits - 1
                }
                words[word] = kept
            }
        }
    }

    /// The indices below `count` that are not in the set.
    func complement(count: Int) -> Bitset {
        var result = Bitset(count: count, filled: true)
        result.subtract(self)
        return result
    }

    /// Calls `body` with each index, in increasing order.
    func forEach(_ body: (Int) throws -> Void) rethrows {
        for (wordIndex, word) in words.enumerated() where word != 0 {
            var bits = word
            while bits != 0 {
                try body(wordIndex << 6 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
    }

    /// The indices, in increasing order.
    var indices: [Int] {
        var result: [Int] = []
        forEach { result.append($0) }
        return result
    }
}

/// One index's test, as a type of its own, so that a loop over a million indices is compiled with the
/// test inlined (`Bitset.keep`, a query's column scans).
protocol RowTest {
    func callAsFunction(_ index: Int) -> Bool
}

/// A test given as a closure, for the sets and terms read too rarely to earn a type.
struct ClosureRowTest: RowTest {
    let test: (Int) -> Bool

    func callAsFunction(_ index: Int) -> Bool { test(index) }
}
