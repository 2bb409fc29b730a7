import PhotoPickKit

/// Every tag of the library, in the server's order, with how many loaded photos carry each.
public struct TagCatalog: Sendable {
    /// The tags; the first nine answer to the number keys.
    public private(set) var tags: [PhotoPickKit.Tag] = []
    /// Loaded photos per tag id.
    public private(set) var counts: [Int: Int] = [:]
    /// Whether the list has arrived.
    public private(set) var isLoaded = false
    /// Where each tag id sits in `tags`, and each tag's colour parsed once: views look both up for
    /// every chip on every frame.
    private var positions: [Int: Int] = [:]
    private var colors: [Int: TagColor] = [:]

    /// The tag with this id.
    public func tag(id: Int) -> PhotoPickKit.Tag? {
        positions[id].map { tags[$0] }
    }

    /// The colour of the tag with this id, when it has a valid one.
    public func color(id: Int) -> TagColor? {
        colors[id]
    }

    /// The tag a number key (1–9) stands for.
    public func tag(number: Int) -> PhotoPickKit.Tag? {
        (1...9).contains(number) && number <= tags.count ? tags[number - 1] : nil
    }

    /// How many loaded photos carry a tag.
    public func count(of tagID: Int) -> Int { counts[tagID, default: 0] }

    mutating func replaceAll(_ tags: [PhotoPickKit.Tag]) {
        self.tags = tags
        isLoaded = true
        reindex()
    }

    mutating func upsert(_ tag: PhotoPickKit.Tag) {
        if let index = positions[tag.id] {
            tags[index] = tag
        } else {
            tags.append(tag)
        }
        reindex()
    }

    mutating func remove(id: Int) {
        tags.removeAll { $0.id == id }
        counts[id] = nil
        reindex()
    }

    /// Tags change rarely (a load, a create, a rename): the lookups are rebuilt whole.
    private mutating func reindex() {
        positions = Dictionary(tags.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        colors = tags.reduce(into: [:]) { colors, tag in colors[tag.id] = tag.color.flatMap(TagColor.init(hex:)) }
    }

    /// Accounts for a photo's tags changing from `old` to `new`.
    mutating func recount(from old: [Int], to new: [Int]) {
        for id in old where !new.contains(id) { counts[id, default: 0] -= 1 }
        for id in new where !old.contains(id) { counts[id, default: 0] += 1 }
    }
}
