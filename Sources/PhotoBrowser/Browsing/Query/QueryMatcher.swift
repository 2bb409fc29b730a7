/// A query made ready for the library's columns: names become string-pool numbers and tag ids, and
/// each term either answers for one photo (a page that just arrived) or for every photo at once as a
/// bit set (a new filter over a million photos: a column read straight through, the free text found
/// with `memmem` in one buffer, a tag's photos taken whole). Built for a pass and dropped after it.
struct QueryMatcher {
    private let terms: [Term]

    /// One term, read against the library.
    private struct Term {
        /// Whether the photo at an index passes.
        let matches: (Int) -> Bool
        /// Every index below the library's count that passes.
        let rows: () -> Bitset
        /// Whether `rows` is `matches` asked of every photo (a column read through), rather than a set
        /// the library keeps (a tag's photos, text found in one buffer): such a term is best asked
        /// only about the photos the other terms let through, by `refine`.
        var isScan = false
        /// Takes out of a set the photos that do not pass.
        var refine: ((inout Bitset) -> Void)?

        func refine(_ rows: inout Bitset) {
            if let refine { refine(&rows) } else { rows.keep(where: matches) }
        }
    }

    init(_ query: PhotoQuery, library: PhotoLibrary, tags: QueryTags) {
        terms = query.conditions.map { Self.term(for: $0, library: library, tags: tags) }
    }

    var isEmpty: Bool { terms.isEmpty }

    /// Whether the photo at `index` passes every term.
    func matches(_ index: Int) -> Bool {
        for term in terms where !term.matches(index) { return false }
        return true
    }

    /// The photos that pass every term, as bits; nil when the query has none. The kept sets come first
    /// and are intersected; each column term is then asked only about the photos still in, so a query
    /// of six terms reads one column whole at most, not six.
    func rows() -> Bitset? {
        let sets = terms.filter { !$0.isScan }, scans = terms.filter(\.isScan)
        guard let first = sets.first ?? scans.first else { return nil }
        var result = first.rows()
        for term in sets.dropFirst() { result.formIntersection(term.rows()) }
        for term in sets.isEmpty ? scans.dropFirst() : scans[...] { term.refine(&result) }
        return result
    }

    private static func term(for condition: QueryCondition, library: PhotoLibrary, tags: QueryTags) -> Term {
        let columns = library.columns, count = columns.count
        switch condition {
        case .word(let word):
            // In the filename or title (the search column), or the camera or lens (the pool).
            let pooled = PoolSet(library.poolIDs { SearchFolding.fold($0).contains(word) })
            let search = columns.search
            let inPool = PoolTest(pooled: pooled, first: columns.cameraMake, second: columns.cameraModel, third: columns.lens)
            return Term(matches: { index in inPool(index) || search.withBytes(index) { Self.contains($0, word) } }) {
                var rows = search.rows(containing: word)
                if !pooled.isEmpty { rows.formUnion(Self.scan(count, inPool)) }
                return rows
            }
        case .camera(let needle, let exact):
            let ids = PoolSet(library.poolIDs { exact ? SearchFolding.fold($0) == needle : SearchFolding.fold($0).contains(needle) })
            return column(count, PoolTest(pooled: ids, first: columns.cameraMake, second: columns.cameraModel, third: nil))
        case .lens(let needle, let exact):
            let ids = PoolSet(library.poolIDs { exact ? SearchFolding.fold($0) == needle : SearchFolding.fold($0).contains(needle) })
            return column(count, PoolTest(pooled: ids, first: columns.lens, second: nil, third: nil))
        case .iso(let range): return column(count, NumberTest(values: columns.iso, range: range))
        case .aperture(let range): return column(count, NumberTest(values: columns.fNumber, range: range))
        case .focalLength(let range): return column(count, NumberTest(values: columns.focalLength, range: range))
        case .size(let range): return column(count, NumberTest(values: columns.bytes, range: range))
        case .taken(let range): return column(count, NumberTest(values: columns.takenAt, range: range))
        case .sharpness(let range): return column(count, NumberTest(values: library.focus, range: range))
        case .tag(_, let key):
            guard let id = tags.idsByNameKey[key] else { return Term(matches: { _ in false }, rows: { Bitset() }) }
            return anyOf([id], library)
        case .rating(let range):
            let starred = tags.tagIDs { if case .rating(let stars) = $0 { range.contains(stars) } else { false } }
            guard range.contains(0) else { return anyOf(starred, library) }
            // Unrated passes too: no rating tag at all, or one in range.
            let rated = anyOf(tags.tagIDs { $0.family == .rating }, library), inRange = anyOf(starred, library)
            return Term(matches: { !rated.matches($0) || inRange.matches($0) }) {
                var rows = rated.rows().complement(count: count)
                rows.formUnion(inRange.rows())
                return rows
            }
        case .flag(let flag): return anyOf(tags.tagIDs { $0 == .flag(flag) }, library)
        case .label(let label): return anyOf(tags.tagIDs { $0 == .label(label) }, library)
        case .hasLocation: return column(count, PresenceTest(values: columns.latitude))
        case .hasCaptureTime: return column(count, PresenceTest(values: columns.takenAt))
        case .hasTitle:
            let titles = columns.titles
            return Term(matches: { index in titles.withBytes(index) { !$0.isEmpty } }) {
                scan(count, { index in titles.withBytes(index) { !$0.isEmpty } })
            }
        case .untagged:
            // No tags but marks: in none of the ordinary tags' sets.
            let ordinary = library.tags.tagIDs.filter { tags.marks[$0] == nil }
            let tagged = anyOf(Set(ordinary), library)
            return Term(matches: { !tagged.matches($0) }, rows: { tagged.rows().complement(count: count) })
        case .not(let inner):
            let term = term(for: inner, library: library, tags: tags)
            // Refining by a negation takes out what refining by the term keeps.
            return Term(matches: { !term.matches($0) }, rows: { term.rows().complement(count: count) }, isScan: term.isScan) { rows in
                var passing = rows
                term.refine(&passing)
                rows.subtract(passing)
            }
        }
    }

    /// A term that reads one row at a time: the bulk forms are the same test over every row, or over the
    /// rows of a set. Generic over the test's type, so each column's loop is compiled with its test
    /// inlined: a closure called per row was most of a query's time at a million photos.
    private static func column<Test: RowTest>(_ count: Int, _ test: Test) -> Term {
        Term(matches: { test($0) }, rows: { scan(count, test) }, isScan: true, refine: { $0.keep(where: test) })
    }
    /// Photos carrying at least one of `tagIDs`, from the tags' own sets.
    private static func anyOf(_ tagIDs: Set<Int>, _ library: PhotoLibrary) -> Term {
        let sets = library.tags, ids = Array(tagIDs)
        return Term(matches: { index in ids.contains { sets.contains($0, index) } }) {
            var rows = Bitset()
            for id in ids { rows.formUnion(sets.photos(with: id)) }
            return rows
        }
    }

    /// The rows below `count` that pass `test`, 64 to a word.
    private static func scan<Test: RowTest>(_ count: Int, _ test: Test) -> Bitset {
        var words = [UInt64](repeating: 0, count: (count + 63) >> 6)
        words.withUnsafeMutableBufferPointer { words in
            for word in words.indices {
                var bits: UInt64 = 0
                let base = word << 6
                for bit in 0..<min(64, count - base) where test(base + bit) { bits |= 1 << UInt64(bit) }
                words[word] = bits
            }
        }
        return Bitset(words: words)
    }

    private static func scan(_ count: Int, _ test: @escaping (Int) -> Bool) -> Bitset {
        scan(count, ClosureRowTest(test: test))
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        var position = 0
        while position <= haystack.count - needle.count {
            if haystack[position] == first {
                var offset = 1
                while offset < needle.count, haystack[position + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            position += 1
        }
        return false
    }
}

/// String-pool numbers as a table indexed by number: a million photos' cameras are looked up with no
/// hashing (a `Set` lookup per photo was most of `camera:gr`).
private struct PoolSet {
    private let members: [Bool]

    init(_ ids: Set<Int32>) {
        var members = [Bool](repeating: false, count: Int(ids.max() ?? 0) + 1)
        for id in ids { members[Int(id)] = true }
        self.members = members
    }

    var isEmpty: Bool { !members.contains(true) }

    func contains(_ id: Int32) -> Bool {
        Int(id) < members.count && id >= 0 && members[Int(id)]
    }
}

/// A value of a number column as a query compares it; nil for a value the photo does not have.
private protocol QueryNumber {
    var queryValue: Double? { get }
}

extension Double: QueryNumber {
    var queryValue: Double? { isNaN ? nil : self }
}

extension Float: QueryNumber {
    var queryValue: Double? { isNaN ? nil : Double(self) }
}

extension Int64: QueryNumber {
    var queryValue: Double? { Double(self) }
}

extension Int32: QueryNumber {
    /// Counts (ISO) store -1 for none.
    var queryValue: Double? { self >= 0 ? Double(self) : nil }
}

/// A number column within a range: `iso>=800`, `taken:2019-06`.
private struct NumberTest<Value: QueryNumber, Bounds: RangeExpression<Double>>: RowTest {
    let values: [Value]
    let range: Bounds

    func callAsFunction(_ index: Int) -> Bool {
        guard let value = values[index].queryValue else { return false }
        return range.contains(value)
    }
}

/// A column whose missing values are NaN, holding one: `has:gps`.
private struct PresenceTest: RowTest {
    let values: [Double]

    func callAsFunction(_ index: Int) -> Bool { !values[index].isNaN }
}

/// Up to three string-pool columns, one holding one of the pooled names: `camera:`, `lens:`, a word
/// that names a camera.
private struct PoolTest: RowTest {
    let pooled: PoolSet
    let first: [Int32]
    let second: [Int32]?
    let third: [Int32]?

    func callAsFunction(_ index: Int) -> Bool {
        if pooled.contains(first[index]) { return true }
        if let second, pooled.contains(second[index]) { return true }
        if let third, pooled.contains(third[index]) { return true }
        return false
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in these bytes.
    func contains(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty else { return true }
        guard count >= needle.count else { return false }
        for start in 0...(count - needle.count) where self[start] == needle[0] {
            if self[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
