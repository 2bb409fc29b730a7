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

    /// A test of library indices against the filter, made ready for one pass over the library.
    func matcher(library: PhotoLibrary, selection: Selection) -> (Int) -> Bool {
        let compiled = QueryMatcher(query, library: library, tags: tagContext)
        let tags = tags, dateRange = dateRange, onlySelected = onlySelected
        return { index in
            let photo = library[index]
            if onlySelected, !selection.contains(index) { return false }
            if !tags.matches(photo.tagIDs) { return false }
            if let dateRange {
                // An unknown capture time is NaN, which fails both comparisons.
                let seconds = photo.takenAtSeconds
                guard seconds >= dateRange.lowerBound.timeIntervalSince1970, seconds <= dateRange.upperBound.timeIntervalSince1970 else { return false }
            }
            return compiled.matches(index, photo)
        }
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

    func matches(_ tagIDs: [Int]) -> Bool {
        switch self {
        case .none: true
        case .any(let wanted): tagIDs.contains(where: wanted.contains)
        case .all(let wanted): wanted.allSatisfy(tagIDs.contains)
        case .untagged: tagIDs.isEmpty
        }
    }
}
