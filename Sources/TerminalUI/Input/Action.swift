/// Everything a key can be bound to. The raw value is the name config files use.
public enum Action: String, Sendable, CaseIterable, Hashable {
    // Browsing
    case down, up, left, right, halfPageDown = "half-page-down", halfPageUp = "half-page-up", pageDown = "page-down", pageUp = "page-up"
    case top, bottom
    case toggleSelection = "toggle-selection", visualRange = "visual-range", selectAll = "select-all", invert
    case cancel
    case filter, tagFilter = "tag-filter", cycleSort = "cycle-sort"
    case tag1 = "tag-1", tag2 = "tag-2", tag3 = "tag-3", tag4 = "tag-4", tag5 = "tag-5"
    case tag6 = "tag-6", tag7 = "tag-7", tag8 = "tag-8", tag9 = "tag-9"
    case tagPicker = "tag-picker", manageTags = "manage-tags", undo
    case download, chooseVariant = "choose-variant", queuePanel = "queue-panel"
    case details, help, quit, reload
    case preview, grid
    // The queue panel
    case queuePause = "queue-pause", queueRetry = "queue-retry", queueCancel = "queue-cancel"
    case concurrencyUp = "concurrency-up", concurrencyDown = "concurrency-down", clearFinished = "clear-finished"

    /// Where an action is available: keys only conflict within one context.
    public enum Context: String, Sendable, CaseIterable {
        case browse, queue
    }

    /// Where the action is available.
    public var context: Context {
        switch self {
        case .queuePause, .queueRetry, .queueCancel, .concurrencyUp, .concurrencyDown, .clearFinished: .queue
        default: .browse
        }
    }

    /// A short description for the help screen.
    var summary: String {
        switch self {
        case .down: "move down"
        case .up: "move up"
        case .left: "move left (grid)"
        case .right: "move right (grid)"
        case .preview: "full-screen preview"
        case .grid: "list / thumbnail grid"
        case .halfPageDown: "half a page down"
        case .halfPageUp: "half a page up"
        case .pageDown: "a page down"
        case .pageUp: "a page up"
        case .top: "first photo"
        case .bottom: "last photo"
        case .toggleSelection: "select, and move on"
        case .visualRange: "visual range"
        case .selectAll: "select all matching"
        case .invert: "invert the selection"
        case .cancel: "clear selection / cancel"
        case .filter: "filter by text"
        case .tagFilter: "filter by tags"
        case .cycleSort: "next sort order"
        case .tag1, .tag2, .tag3, .tag4, .tag5, .tag6, .tag7, .tag8, .tag9: "toggle tag \(tagNumber ?? 0)"
        case .tagPicker: "tag picker"
        case .manageTags: "manage tags"
        case .undo: "undo the last tag change"
        case .download: "download selection or photo"
        case .chooseVariant: "choose the variant"
        case .queuePanel: "download queue"
        case .details: "full metadata"
        case .help: "this help"
        case .quit: "quit"
        case .reload: "check the library against the server now (or resume a stopped check)"
        case .queuePause: "pause / resume"
        case .queueRetry: "retry"
        case .queueCancel: "cancel"
        case .concurrencyUp: "more at once"
        case .concurrencyDown: "fewer at once"
        case .clearFinished: "clear finished"
        }
    }

    /// 1–9 for the tag actions.
    var tagNumber: Int? {
        rawValue.hasPrefix("tag-") ? Int(rawValue.dropFirst(4)) : nil
    }
}
