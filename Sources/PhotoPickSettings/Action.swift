import PhotoBrowser

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
    // Editing
    case edit, bulkEdit = "bulk-edit", purgeRejects = "purge-rejects", copyID = "copy-id", copyMenu = "copy-menu"
    case preview, grid
    // Culling, anywhere
    case pick, reject, unflag, cullMode = "cull-mode"
    case stackBursts = "stack-bursts", openStack = "open-stack", savedSearches = "saved-searches"
    case pickSharpest = "pick-sharpest", compare, zoom
    // Looking at exposure and the library
    case histogram, clipping, stats
    // Culling, in cull mode
    case rate0 = "rate-0", rate1 = "rate-1", rate2 = "rate-2", rate3 = "rate-3", rate4 = "rate-4", rate5 = "rate-5"
    case labelRed = "label-red", labelYellow = "label-yellow", labelGreen = "label-green", labelBlue = "label-blue"
    case labelPurple = "label-purple"
    // The queue panel
    case queuePause = "queue-pause", queueRetry = "queue-retry", queueCancel = "queue-cancel"
    case concurrencyUp = "concurrency-up", concurrencyDown = "concurrency-down", clearFinished = "clear-finished"

    /// Where an action is available: keys only conflict within one context.
    public enum Context: String, Sendable, CaseIterable {
        /// Cull mode's keys come before the browsing keys while it is on.
        case browse, queue, cull
    }

    /// Where the action is available.
    public var context: Context {
        switch self {
        case .queuePause, .queueRetry, .queueCancel, .concurrencyUp, .concurrencyDown, .clearFinished: .queue
        case .rate0, .rate1, .rate2, .rate3, .rate4, .rate5, .labelRed, .labelYellow, .labelGreen, .labelBlue, .labelPurple: .cull
        default: .browse
        }
    }

    /// The mark a culling action sets, or nil for the others (`rate-0` clears, see `clearedFamily`).
    package var mark: Mark? {
        switch self {
        case .pick: .flag(.pick)
        case .reject: .flag(.reject)
        case .rate1, .rate2, .rate3, .rate4, .rate5: .rating(Int(rawValue.suffix(1)) ?? 1)
        case .labelRed: .label(.red)
        case .labelYellow: .label(.yellow)
        case .labelGreen: .label(.green)
        case .labelBlue: .label(.blue)
        case .labelPurple: .label(.purple)
        default: nil
        }
    }

    /// What a marking action does to one photo; nil for the others.
    package var markKey: MarkKey? {
        if let family = clearedFamily { return .clear(family) }
        if case .label(let label)? = mark { return .toggleLabel(label) }
        return mark.map { .set($0) }
    }

    /// The family a clearing action empties: `unflag`, `rate-0`.
    package var clearedFamily: Mark.Family? {
        switch self {
        case .unflag: .flag
        case .rate0: .rating
        default: nil
        }
    }

    /// A short description for the help screen.
    package var summary: String {
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
        case .filter: "filter by text and terms"
        case .tagFilter: "filter by tags"
        case .cycleSort: "next sort order"
        case .tag1, .tag2, .tag3, .tag4, .tag5, .tag6, .tag7, .tag8, .tag9: "toggle tag \(tagNumber ?? 0)"
        case .tagPicker: "tag picker"
        case .manageTags: "manage tags"
        case .undo: "undo the last tag or edit"
        case .edit: "edit title, description, file name, capture time (a shift such as +1h)"
        case .bulkEdit: "edit names and titles in $EDITOR, one line per photo"
        case .purgeRejects: "delete the rejected photos in the list from the server (asks first)"
        case .copyID: "copy the photo's id to the clipboard"
        case .copyMenu: "copy the id, name, downloaded file's path or API URL"
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
        case .pick: "pick (flag as a keeper)"
        case .reject: "reject"
        case .unflag: "unflag: neither pick nor reject"
        case .cullMode: "cull mode on / off (also esc)"
        case .stackBursts: "stack bursts / show every photo"
        case .openStack: "open / close the stack (×N) or the RAW+JPG pair here"
        case .savedSearches: "saved searches (config [searches])"
        case .pickSharpest: "pick the sharpest frame of each burst (asks first)"
        case .zoom: "100% loupe at the sharpest point, in full screen or compare (h/j/k/l pan, z back)"
        case .compare: "compare the burst here or 2–4 selected side by side (h/l active, marks on it, esc back)"
        case .histogram: "histogram on / off in full screen and the loupe (the side pane always has it)"
        case .clipping: "show blown highlights red and crushed shadows blue, in full screen, compare and the loupe"
        case .stats: "the photos listed in charts: per day or month, cameras, lenses, focal lengths, ISO, aperture, marks"
        case .rate0: "clear the rating"
        case .rate1, .rate2, .rate3, .rate4, .rate5: "rate \(rawValue.suffix(1)) star\(rawValue.hasSuffix("1") ? "" : "s")"
        case .labelRed, .labelYellow, .labelGreen, .labelBlue, .labelPurple: "label \(rawValue.dropFirst(6)) (again: off)"
        }
    }

    /// 1–9 for the tag actions.
    public var tagNumber: Int? {
        rawValue.hasPrefix("tag-") ? Int(rawValue.dropFirst(4)) : nil
    }
}
