/// Which keys do what, per context. Defaults follow lf, ranger and yazi; a config file can rebind any
/// action, and the help screen shows the map in force.
public struct Keymap: Sendable, Equatable {
    /// Keys of each action, in the order they were given.
    public private(set) var bindings: [Action: [Key]]
    private var lookup: [Action.Context: [Key: Action]]

    /// The default keys, listed in the README under Keys.
    public static let standard = Keymap(bindings: [
        .down: [.character("j"), .down], .up: [.character("k"), .up],
        .left: [.character("h"), .left], .right: [.character("l"), .right],
        .preview: [.character("p")], .grid: [.tab],
        .halfPageDown: [.control("d")], .halfPageUp: [.control("u")],
        .pageDown: [.pageDown, .control("f")], .pageUp: [.pageUp, .control("b")],
        .top: [.character("g"), .home], .bottom: [.character("G"), .end],
        .toggleSelection: [.character(" ")], .visualRange: [.character("v")], .selectAll: [.character("a")],
        .invert: [.character("i")], .cancel: [.escape],
        .filter: [.character("/")], .tagFilter: [.character("f")], .cycleSort: [.character("s")],
        .tag1: [.character("1")], .tag2: [.character("2")], .tag3: [.character("3")], .tag4: [.character("4")],
        .tag5: [.character("5")], .tag6: [.character("6")], .tag7: [.character("7")], .tag8: [.character("8")],
        .tag9: [.character("9")],
        .tagPicker: [.character("t")], .manageTags: [.character("T")], .undo: [.character("u")],
        .edit: [.character("E")], .bulkEdit: [.control("e")], .purgeRejects: [.character("#")],
        .copyID: [.character("y")], .copyMenu: [.character("Y")],
        .download: [.character("d")], .chooseVariant: [.character("o")], .queuePanel: [.character("D")],
        .details: [.enter], .help: [.character("?")], .quit: [.character("q"), .control("c")], .reload: [.character("R")],
        .queuePause: [.character("p")], .queueRetry: [.character("r")], .queueCancel: [.character("x")],
        .concurrencyUp: [.character("+"), .character("=")], .concurrencyDown: [.character("-")],
        .clearFinished: [.character("c")],
        .pick: [.character("P")], .reject: [.character("X")], .unflag: [.character("U")], .cullMode: [.character("c")],
        .stackBursts: [.character("b")], .openStack: [.character("e")], .savedSearches: [.character("S")],
        .pickSharpest: [.character("B")], .compare: [.character("C")], .zoom: [.character("z")],
        .histogram: [.character("H")], .clipping: [.character("J")], .stats: [.character("I")],
        .rate0: [.character("0")], .rate1: [.character("1")], .rate2: [.character("2")], .rate3: [.character("3")],
        .rate4: [.character("4")], .rate5: [.character("5")], .labelRed: [.character("6")], .labelYellow: [.character("7")],
        .labelGreen: [.character("8")], .labelBlue: [.character("9")], .labelPurple: [.character("V")],
    ])

    private init(bindings: [Action: [Key]]) {
        self.bindings = bindings
        lookup = [:]
        for (action, keys) in bindings {
            for key in keys { lookup[action.context, default: [:]][key] = action }
        }
    }

    /// Why a rebinding is refused: the key already does something else in that context. A struct, so
    /// that a later kind of refusal breaks no caller.
    public struct Conflict: Error, Equatable {
        /// The key asked for.
        public let key: Key
        /// The action that holds it.
        public let holder: Action
    }

    /// Binds `keys` to `action` in place of its current keys. A key that another action of the same
    /// context keeps is a conflict; keys the other action loses by an earlier rebinding are free.
    public mutating func rebind(_ action: Action, to keys: [Key]) throws(Conflict) {
        for key in keys {
            if let holder = lookup[action.context]?[key], holder != action { throw Conflict(key: key, holder: holder) }
        }
        for key in bindings[action, default: []] { lookup[action.context]?[key] = nil }
        bindings[action] = keys
        for key in keys { lookup[action.context, default: [:]][key] = action }
    }

    /// Frees a key in a context, so that another action can take it.
    public mutating func unbind(_ key: Key, in context: Action.Context) {
        guard let holder = lookup[context]?[key] else { return }
        bindings[holder]?.removeAll { $0 == key }
        lookup[context]?[key] = nil
    }

    /// The action a key does in a context.
    public func action(for key: Key, in context: Action.Context) -> Action? {
        lookup[context]?[key]
    }

    /// Whether any context binds `key`.
    package func binds(_ key: Key) -> Bool {
        lookup.values.contains { $0[key] != nil }
    }

    /// The keys of an action, as the help screen writes them: `j, down`.
    public func keyNames(_ action: Action) -> String {
        bindings[action, default: []].map(\.label).joined(separator: ", ")
    }

    /// The first key of an action as hints show it, or nil when it has none.
    package func label(_ action: Action) -> String? {
        bindings[action]?.first?.label
    }

    /// The first key of an action, for hints: `?`, or `—` when it has none.
    package func hint(_ action: Action) -> String {
        label(action) ?? "—"
    }
}
