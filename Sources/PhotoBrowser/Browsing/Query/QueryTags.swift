import PhotoPickKit

/// What a query needs to know of the tags: ids by name, and which tags are marks. Taken from the
/// catalogue whenever the filter or the tags change.
struct QueryTags: Sendable, Equatable {
    var idsByNameKey: [String: Int] = [:]
    var marks: [Int: Mark] = [:]

    init() {}

    init(_ catalog: TagCatalog) {
        for tag in catalog.tags {
            let key = PhotoPickKit.Tag.nameKey(tag.name)
            if idsByNameKey[key] == nil { idsByNameKey[key] = tag.id }
            if let mark = catalog.mark(ofTag: tag.id) { marks[tag.id] = mark }
        }
    }

    /// The ids of the marks that pass `test`.
    func tagIDs(where test: (Mark) -> Bool) -> Set<Int> {
        Set(marks.filter { test($0.value) }.keys)
    }
}
