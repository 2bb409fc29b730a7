import Foundation

/// Which photos the list shows; every part is optional and all parts must match.
public struct PhotoFilter: Sendable, Equatable {
    /// Words that must all occur in the filename, title, camera or lens, ignoring case and accents.
    public var text: String = "" {
        didSet { query = SearchQuery(text) }
    }
    /// The tags a photo must carry.
    public var tags: TagFilter = .none
    /// The capture times to show; photos without a capture time are left out while it is set.
    public var dateRange: ClosedRange<Date>?
    /// Only photos in the selection.
    public var onlySelected = false

    private(set) var query = SearchQuery("")

    /// A filter that lets every photo through.
    public init() {}

    /// Whether nothing is filtered out.
    public var isEmpty: Bool {
        query.isEmpty && tags == .none && dateRange == nil && !onlySelected
    }

    func matches(_ index: Int, in library: PhotoLibrary, selection: Selection) -> Bool {
        let photo = library[index]
        if onlySelected, !selection.contains(index) { return false }
        if !tags.matches(photo.tagIDs) { return false }
        if let dateRange {
            // An unknown capture time is NaN, which fails both comparisons.
            let seconds = photo.takenAtSeconds
            guard seconds >= dateRange.lowerBound.timeIntervalSince1970, seconds <= dateRange.upperBound.timeIntervalSince1970 else { return false }
        }
        return query.isEmpty || library.matchesText(index, query)
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
