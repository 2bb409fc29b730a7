import Foundation
import PhotoPickKit

/// Which photos the list shows; every part is optional and all parts must match.
public struct PhotoFilter: Sendable, Equatable {
    /// The query typed after `/`: words that must all occur in the filename, title, camera or lens
    /// (ignoring case and accents), and field terms such as `iso>=3200` or `rating>=3`.
    public var text: String = "" {
        didSet { query = PhotoQuery(text) }
    }
    /// The tags a photo must carry.
    public var tags: TagFilter = .none
    /// The capture times to show; photos without a capture time are left out while it is set.
    var dateRange: ClosedRange<Date>?
    /// Only photos in the selection.
    public var onlySelected = false

    /// The text, read.
    public private(set) var query = PhotoQuery("")
    /// The tags' names and marks as the query reads them; the session keeps it current.
    var tagContext = QueryTags()

    /// A filter that lets every photo through.
    init() {}

    /// Whether nothing is filtered out.
    public var isEmpty: Bool {
        query.isEmpty && tags == .none && dateRange == nil && !onlySelected
    }

    /// Sets a query read already, such as one read in another time zone.
    mutating func setQuery(_ query: PhotoQuery) {
        text = query.text
        self.query = query
    }

    /// The `#` terms that name no tag, for the prompt to show with the terms it could not read.
    public func unknownTags() -> [PhotoQuery.Problem] {
        QueryToken.split(query.text).compactMap { token in
            // A quoted word is free text, never a tag (`"#1"`).
            guard !token.isQuoted else { return nil }
            var name = Substring(token.text)
            if name.hasPrefix("-") { name = name.dropFirst() }
            guard name.hasPrefix("#"), name.count > 1 else { return nil }
            let key = PhotoPickKit.Tag.nameKey(name.dropFirst().trimmingCharacters(in: .whitespaces))
            return tagContext.idsByNameKey[key] == nil && !key.isEmpty
                ? PhotoQuery.Problem(token: token, reason: "no tag is called “\(name.dropFirst())”") : nil
        }
    }

    /// The filter made ready for one pass over the library: a test of one index, or every index at once.
    func matcher(library: PhotoLibrary, selection: Selection) -> FilterMatcher {
        FilterMatcher(self, library: library, selection: selection)
    }
}

/// A filter read against the library and the selection, for one pass.
struct FilterMatcher {
    private let query: QueryMatcher
    private let filter: PhotoFilter
    private let library: PhotoLibrary
    private let selection: Selection

    init(_ filter: PhotoFilter, library: PhotoLibrary, selection: Selection) {
        query = QueryMatcher(filter.query, library: library, tags: filter.tagContext)
        self.filter = filter
        self.library = library
        self.selection = selection
    }

    /// Whether the photo at `index` passes: it, or its partner in a RAW+JPEG pair (a pair is listed
    /// whole or not at all, so a search for `.jpg` finds the pair).
    func matches(_ index: Int) -> Bool {
        passes(index) || library.pairs.partner(of: index).map(passes) ?? false
    }

    private func passes(_ index: Int) -> Bool {
        if filter.onlySelected, !selection.contains(index) { return false }
        if !filter.tags.matches(index, library.tags) { return false }
        if let range = filter.dateRange, !Self.within(library.columns.takenAt[index], range) { return false }
        return query.matches(index)
    }

    /// Every index that passes, as bits: each part of the filter taken whole.
    func rows() -> Bitset {
        let count = library.storedCount
        var result = query.rows() ?? Bitset(count: count, filled: true)
        if filter.onlySelected { result.formIntersection(Bitset(selection.indices)) }
        if let tags = filter.tags.rows(library.tags, count: count) { result.formIntersection(tags) }
        if let range = filter.dateRange {
            let takenAt = library.columns.takenAt
            result.formIntersection(Bitset((0..<count).filter { Self.within(takenAt[$0], range) }))
        }
        library.pairs.joinPartners(&result)
        return result
    }

    /// An unknown capture time is NaN, which fails both comparisons.
    private static func within(_ seconds: Double, _ range: ClosedRange<Date>) -> Bool {
        seconds >= range.lowerBound.timeIntervalSince1970 && seconds <= range.upperBound.timeIntervalSince1970
    }
}

/// A filter on tags.
public enum TagFilter: Sendable, Equatable {
    /// Tags do not matter.
    case none
    /// At least one of these tags.
    case any(Set<Int>)
    /// Every one of these tags.
    case all(Set<Int>)
    /// No tags at all.
    case untagged

    /// Whether the photo at `index` passes, by the tags' own sets.
    func matches(_ index: Int, _ sets: TagSets) -> Bool {
        switch self {
        case .none: true
        case .any(let wanted): wanted.contains { sets.contains($0, index) }
        case .all(let wanted): wanted.allSatisfy { sets.contains($0, index) }
        case .untagged: sets.tagIDs.allSatisfy { !sets.contains($0, index) }
        }
    }

    /// The photos that pass, as bits; nil when tags do not matter.
    func rows(_ sets: TagSets, count: Int) -> Bitset? {
        switch self {
        case .none: return nil
        case .any(let wanted):
            var rows = Bitset()
            for id in wanted { rows.formUnion(sets.photos(with: id)) }
            return rows
        case .all(let wanted):
            guard var rows = wanted.first.map(sets.photos(with:)) else { return Bitset(count: count, filled: true) }
            for id in wanted.dropFirst() { rows.formIntersection(sets.photos(with: id)) }
            return rows
        case .untagged:
            var tagged = Bitset()
            for id in sets.tagIDs { tagged.formUnion(sets.photos(with: id)) }
            return tagged.complement(count: count)
        }
    }
}
