import Foundation

/// One string per photo, all in one buffer: row `i`'s slot runs from the end of row `i - 1`'s to
/// `ends[i]`, so a million names cost their bytes and four more each, and a search scans the buffer
/// whole with `memmem` rather than a string at a time.
///
/// A row whose new text is as long as its slot is rewritten in place; a longer or shorter one moves to
/// `moved` (renames are rare) and its slot is filled with `filler`, which a search never matches.
struct TextColumn: Sendable {
    private(set) var bytes: [UInt8] = []
    /// Where each row's slot ends.
    private(set) var ends: [UInt32] = []
    /// The rows that left their slot, and their text.
    private var moved: [Int32: [UInt8]] = [:]
    /// What fills a slot its row left: a byte no text holds.
    let filler: UInt8

    init(filler: UInt8) {
        self.filler = filler
    }

    /// Reassembles a column written by `parts`.
    init(filler: UInt8, bytes: [UInt8], ends: [UInt32], moved: [Int32: [UInt8]]) {
        self.filler = filler
        self.bytes = bytes
        self.ends = ends
        self.moved = moved
    }

    /// The stored parts, for a snapshot of the library.
    var parts: (bytes: [UInt8], ends: [UInt32], moved: [Int32: [UInt8]]) { (bytes, ends, moved) }

    var count: Int { ends.count }


    mutating func append<Text: Collection<UInt8>>(_ text: Text) {
        bytes.append(contentsOf: text)
        ends.append(UInt32(bytes.count))
    }

    private func slot(_ row: Int) -> Range<Int> {
        (row == 0 ? 0 : Int(ends[row - 1]))..<Int(ends[row])
    }

    /// Gives back the room the buffers keep for growth.
    mutating func compact() {
        bytes = bytes.compacted()
        ends = ends.compacted()
    }

    /// Calls `body` with the row's bytes.
    func withBytes<Result>(_ row: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let text = moved[Int32(row)] { return try text.withUnsafeBufferPointer(body) }
        let slot = slot(row)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[slot])) }
    }

    /// The row's text as a string (UTF-8 as stored).
    func string(_ row: Int) -> String {
        withBytes(row) { String(decoding: $0, as: UTF8.self) }
    }

    /// Gives a row new text.
    mutating func replace<Text: Collection<UInt8>>(_ row: Int, with text: Text) {
        let slot = slot(row)
        if text.count == slot.count {
            bytes.replaceSubrange(slot, with: text)
            moved[Int32(row)] = nil
        } else {
            bytes.replaceSubrange(slot, with: repeatElement(filler, count: slot.count))
            moved[Int32(row)] = Array(text)
        }
    }

    /// Empties a row (a photo deleted on the server): a search no longer finds it.
    mutating func blank(_ row: Int) {
        replace(row, with: EmptyCollection())
    }

    /// The rows whose text contains `needle`, among `0..<count`.
    func rows(containing needle: [UInt8]) -> Bitset {
        guard !needle.isEmpty, !needle.contains(filler) else {
            return needle.isEmpty ? Bitset(count: count, filled: true) : Bitset()
        }
        var words = [UInt64](repeating: 0, count: (count + 63) >> 6)
        bytes.withUnsafeBufferPointer { haystack in
            ends.withUnsafeBufferPointer { ends in
                needle.withUnsafeBufferPointer { needle in
                    words.withUnsafeMutableBufferPointer { Self.mark(needle, in: haystack, ends: ends, into: $0) }
                }
            }
        }
        var found = Bitset(words: words)
        for (row, text) in moved where text.contains(needle) { found.insert(Int(row)) }
        return found
    }

    /// Sets the bit of each row whose slot holds `needle`, going through the buffer once.
    private static func mark(
        _ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, ends: UnsafeBufferPointer<UInt32>,
        into words: UnsafeMutableBufferPointer<UInt64>
    ) {
        var from = 0
        var row = 0
        while from < haystack.count {
            guard let position = find(needle, in: haystack, from: from) else { return }
            // The row whose slot holds the hit: ends are increasing, and hits come in order.
            row = firstEnd(after: position, in: ends, from: row)
            guard row < ends.count else { return }
            if position + needle.count <= Int(ends[row]) {
                words[row >> 6] |= 1 << UInt64(row & 63)
                from = Int(ends[row])
            } else {
                from = position + 1
            }
        }
    }

    /// Where `needle` next occurs at or after `from`. The next few bytes are looked at here, then
    /// `memchr` (glibc's is vectorised) finds each candidate first byte further on: a common word hits
    /// in most rows, a few bytes apart, where a call per hit cost more than the search. Hand-written
    /// because `memmem` is a GNU extension that Swift's Glibc module does not expose.
    private static func find(_ needle: UnsafeBufferPointer<UInt8>, in haystack: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return nil }
        let first = needle[0], last = haystack.count - needle.count
        func isHit(_ position: Int) -> Bool {
            var offset = 1
            while offset < needle.count, base[position + offset] == needleBase[offset] { offset += 1 }
            return offset == needle.count
        }
        var start = from
        let near = min(last + 1, start + 32)
        while start < near {
            if base[start] == first, isHit(start) { return start }
            start += 1
        }
        while start <= last {
            guard let hit = memchr(base + start, Int32(first), last - start + 1) else { return nil }
            let position = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if isHit(position) { return position }
            start = position + 1
        }
        return nil
    }

    /// The first row at or after `start` whose slot ends beyond `position`. Hits come close together,
    /// so it gallops from `start` (1, 2, 4... rows on) before bisecting: a bisection over the whole
    /// column missed the cache at every step, and was most of a common word's search.
    private static func firstEnd(after position: Int, in ends: UnsafeBufferPointer<UInt32>, from start: Int) -> Int {
        var low = start, step = 1, high = start
        while high < ends.count, Int(ends[high]) <= position {
            low = high + 1
            high = start + step
            step <<= 1
        }
        high = min(high, ends.count)
        while low < high {
            let middle = (low + high) / 2
            if Int(ends[middle]) <= position { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
