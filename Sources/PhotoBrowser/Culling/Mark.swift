/// A culling mark: a flag, a star rating or a colour label, each stored on the server as a tag so the
/// web app and every other client see it. A photo has at most one mark of each family.
public enum Mark: Sendable, Hashable {
    case flag(Flag)
    /// One to five stars.
    case rating(Int)
    case label(ColourLabel)

    /// Pick or reject.
    public enum Flag: String, Sendable, CaseIterable {
        case pick, reject
    }

    /// Lightroom's five colour labels.
    public enum ColourLabel: String, Sendable, CaseIterable {
        case red, yellow, green, blue, purple
    }

    /// The three families; a photo carries at most one mark of each.
    public enum Family: Sendable, Hashable, CaseIterable {
        case flag, rating, label
    }

    /// Every mark, in the order the config lists them.
    public static let all: [Mark] = Flag.allCases.map(Mark.flag) + (1...5).map(Mark.rating) + ColourLabel.allCases.map(Mark.label)

    /// Its family.
    var family: Family {
        switch self {
        case .flag: .flag
        case .rating: .rating
        case .label: .label
        }
    }

    /// The `[cull]` key that renames its tag: `pick`, `rating_3`, `red`.
    package var configKey: String {
        switch self {
        case .flag(let flag): flag.rawValue
        case .rating(let stars): "rating_\(stars)"
        case .label(let label): label.rawValue
        }
    }

    /// The tag's name when the config does not change it.
    var defaultTagName: String {
        switch self {
        case .flag(.pick): "Pick"
        case .flag(.reject): "Reject"
        case .rating(let stars): stars == 1 ? "1 star" : "\(stars) stars"
        case .label(let label): label.rawValue.capitalized
        }
    }

    /// The colour its tag is created with.
    public var tagColor: String {
        switch self {
        case .flag(.pick): "#22c55e"
        case .flag(.reject): "#6b7280"
        case .rating: "#f5b301"
        case .label(.red): "#e5484d"
        case .label(.yellow): "#f5d90a"
        case .label(.green): "#30a46c"
        case .label(.blue): "#3e63dd"
        case .label(.purple): "#8e4ec6"
        }
    }
}

/// The marks one photo carries.
public struct PhotoMarks: Sendable, Equatable {
    /// Pick, reject or neither.
    public var flag: Mark.Flag?
    /// Stars, 0 when unrated.
    public var rating = 0
    /// The colour label, if any.
    public var label: Mark.ColourLabel?

    /// No marks.
    init() {}

    /// Whether it carries no mark.
    public var isEmpty: Bool { flag == nil && rating == 0 && label == nil }

    mutating func add(_ mark: Mark) {
        switch mark {
        case .flag(let flag): self.flag = flag
        case .rating(let stars): rating = max(rating, stars)
        case .label(let label): self.label = label
        }
    }
}

/// What a mark key does: set a mark, clear a family, or toggle a label.
public enum MarkKey: Sendable, Equatable {
    case set(Mark)
    case clear(Mark.Family)
    case toggleLabel(Mark.ColourLabel)

    /// The event for this key on the selection, or the photo under the cursor.
    public var event: BrowserEvent {
        switch self {
        case .set(let mark): .tags(.markChosen(mark))
        case .clear(let family): .tags(.markCleared(family))
        case .toggleLabel(let label): .tags(.labelToggled(label))
        }
    }
}
