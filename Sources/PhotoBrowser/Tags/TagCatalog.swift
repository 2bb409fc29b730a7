import PhotoPickKit

/// Every tag of the library, in the server's order (the library counts the photos of each).
public struct TagCatalog: Sendable {
    /// The tags; the first nine answer to the number keys.
    public private(set) var tags: [PhotoPickKit.Tag] = []
    /// Whether the list has arrived.
    private(set) var isLoaded = false
    /// Where each tag id sits in `tags`, and each tag's colour parsed once: views look both up for
    /// every chip on every frame.
    private var positions: [Int: Int] = [:]
    private var colors: [Int: TagColor] = [:]
    /// The tag names marks are stored as.
    public private(set) var markNames = MarkNames()
    /// Tags asked for that the server has not made yet, by placeholder id; they are in `tags` too.
    private(set) var pending: [Int: PendingTag] = [:]
    /// Which tags are marks, and each mark's tag, found by name on every change of the list.
    private var marksByTag: [Int: Mark] = [:]
    private var tagsByMark: [Mark: Int] = [:]

    /// A catalogue that knows marks by `markNames`.
    init(markNames: MarkNames = MarkNames()) {
        self.markNames = markNames
    }

    /// The mark a tag stands for, or nil for an ordinary tag.
    package func mark(ofTag id: Int) -> Mark? {
        marksByTag[id]
    }

    /// The tag a mark is stored as, once it exists on the server.
    func tagID(of mark: Mark) -> Int? {
        tagsByMark[mark]
    }

    /// Whether any tag is a mark; views skip looking when none is.
    var hasMarks: Bool { !marksByTag.isEmpty }

    /// The marks among a photo's tags.
    public func marks(of tagIDs: [Int]) -> PhotoMarks {
        var marks = PhotoMarks()
        guard !marksByTag.isEmpty else { return marks }
        for id in tagIDs {
            if let mark = marksByTag[id] { marks.add(mark) }
        }
        return marks
    }

    /// A photo's tags without its marks: the ordinary chips.
    public func ordinaryTags(_ tagIDs: [Int]) -> [Int] {
        marksByTag.isEmpty ? tagIDs : tagIDs.filter { marksByTag[$0] == nil }
    }

    /// The tags of one family of marks.
    func tagIDs(of family: Mark.Family) -> [Int] {
        tagsByMark.filter { $0.key.family == family }.map(\.value)
    }

    /// The tag with this id.
    public func tag(id: Int) -> PhotoPickKit.Tag? {
        positions[id].map { tags[$0] }
    }

    /// The colour of the tag with this id, when it has a valid one.
    public func color(id: Int) -> TagColor? {
        colors[id]
    }

    /// The tag a number key (1–9) stands for.
    func tag(number: Int) -> PhotoPickKit.Tag? {
        (1...9).contains(number) && number <= tags.count ? tags[number - 1] : nil
    }

    /// Whether a tag is still waiting to be made by the server.
    func isPending(_ id: Int) -> Bool { pending[id] != nil }

    /// The tag whose name matches `name` as the server matches names (ignoring case), made or pending.
    func tag(named name: String) -> PhotoPickKit.Tag? {
        tags.first(named: name)
    }

    /// Lists a tag not made yet under its placeholder, so it can be put on photos (and be a mark) at once.
    mutating func addPending(_ tag: PendingTag) {
        pending[tag.placeholderID] = tag
        upsert(PhotoPickKit.Tag(id: tag.placeholderID, name: tag.name, color: tag.color))
    }

    /// The server made a pending tag: the real one takes the placeholder's place. The caller moves the
    /// photos from one to the other.
    mutating func resolve(_ placeholderID: Int, as tag: PhotoPickKit.Tag) {
        pending[placeholderID] = nil
        if let index = positions[placeholderID], positions[tag.id] == nil {
            tags[index] = tag
            reindex()
        } else {
            remove(id: placeholderID)
            upsert(tag)
        }
    }

    /// A fresh list from the server; tags still being made stay after it.
    mutating func replaceAll(_ tags: [PhotoPickKit.Tag]) {
        self.tags = tags + self.tags.filter { pending[$0.id] != nil }
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
        pending[id] = nil
        tags.removeAll { $0.id == id }
        reindex()
    }

    /// Tags change rarely (a load, a create, a rename): the lookups are rebuilt whole.
    private mutating func reindex() {
        positions = Dictionary(tags.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        colors = tags.reduce(into: [:]) { colors, tag in colors[tag.id] = tag.color.flatMap(TagColor.init(hex:)) }
        let markByName = Dictionary(Mark.all.map { (PhotoPickKit.Tag.nameKey(markNames.name(of: $0)), $0) }, uniquingKeysWith: { first, _ in first })
        marksByTag = [:]
        tagsByMark = [:]
        for tag in tags {
            guard let mark = markByName[PhotoPickKit.Tag.nameKey(tag.name)], tagsByMark[mark] == nil else { continue }
            marksByTag[tag.id] = mark
            tagsByMark[mark] = tag.id
        }
    }
}
