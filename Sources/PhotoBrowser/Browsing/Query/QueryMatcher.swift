/// A query made ready for one pass over the library: names become string-pool numbers and tag ids, so
/// each photo is tested with comparisons of numbers. Built for a pass and dropped after it; it holds
/// the library, and keeping it would copy the library on the next change.
struct QueryMatcher {
    private typealias Test = (Int, LibraryPhoto) -> Bool
    private let tests: [Test]

    init(_ query: PhotoQuery, library: PhotoLibrary, tags: QueryTags) {
        tests = query.conditions.map { Self.test(for: $0, library: library, tags: tags) }
    }

    var isEmpty: Bool { tests.isEmpty }

    func matches(_ index: Int, _ photo: LibraryPhoto) -> Bool {
        for test in tests where !test(index, photo) { return false }
        return true
    }

    private static func test(for condition: QueryCondition, library: PhotoLibrary, tags: QueryTags) -> Test {
        switch condition {
        case .word(let word):
            let query = SearchQuery(words: [word])
            return { index, _ in library.matchesText(index, query) }
        case .camera(let needle):
            let ids = library.poolIDs { SearchFolding.fold($0).contains(needle) }
            return { _, photo in ids.contains(photo.cameraMake) || ids.contains(photo.cameraModel) }
        case .lens(let needle):
            let ids = library.poolIDs { SearchFolding.fold($0).contains(needle) }
            return { _, photo in ids.contains(photo.lens) }
        case .iso(let range): return { _, photo in photo.iso >= 0 && range.contains(Double(photo.iso)) }
        case .aperture(let range): return { _, photo in range.contains(photo.fNumber) }
        case .focalLength(let range): return { _, photo in range.contains(photo.focalLength) }
        case .size(let range): return { _, photo in range.contains(Double(photo.bytes)) }
        case .taken(let range): return { _, photo in range.contains(photo.takenAtSeconds) }
        case .sharpness(let range): return { index, _ in library.focusScore(at: index).map(range.contains) ?? false }
        case .tag(_, let key):
            guard let id = tags.idsByNameKey[key] else { return { _, _ in false } }
            return { _, photo in photo.tagIDs.contains(id) }
        case .rating(let range):
            let starred = tags.tagIDs { if case .rating(let stars) = $0 { range.contains(stars) } else { false } }
            let allRatings = tags.tagIDs { $0.family == .rating }
            guard range.contains(0) else { return { _, photo in photo.tagIDs.contains(where: starred.contains) } }
            // Unrated passes too: no rating tag at all, or one in range.
            return { _, photo in !photo.tagIDs.contains(where: allRatings.contains) || photo.tagIDs.contains(where: starred.contains) }
        case .flag(let flag):
            let ids = tags.tagIDs { $0 == .flag(flag) }
            return { _, photo in photo.tagIDs.contains(where: ids.contains) }
        case .label(let label):
            let ids = tags.tagIDs { $0 == .label(label) }
            return { _, photo in photo.tagIDs.contains(where: ids.contains) }
        case .hasLocation: return { _, photo in !photo.latitude.isNaN }
        case .hasCaptureTime: return { _, photo in !photo.takenAtSeconds.isNaN }
        case .hasTitle: return { _, photo in !(photo.title ?? "").isEmpty }
        case .untagged:
            let marks = tags.marks
            return { _, photo in photo.tagIDs.allSatisfy { marks[$0] != nil } }
        case .not(let inner):
            let test = test(for: inner, library: library, tags: tags)
            return { index, photo in !test(index, photo) }
        }
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
