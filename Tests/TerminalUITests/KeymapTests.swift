import Testing
@testable import TerminalUI
@testable import PhotoPickSettings

@Suite struct KeymapTests {
    @Test func keyNamesRoundTrip() {
        let names = ["j", "G", "?", "space", "ctrl-d", "pgdn", "pgup", "home", "end", "enter", "esc", "f2", "shift-tab", "backspace", "1"]
        for name in names {
            #expect(Key(name: name)?.name == name, "\(name)")
        }
        #expect(Key(name: "C-d") == .control("d"))
        #expect(Key(name: "Escape") == .escape)
        #expect(Key(name: "ctrl-dd") == nil)
        #expect(Key(name: "f25") == nil)
        #expect(Key(name: "") == nil)
    }

    @Test func theStandardMapMatchesTheREADMETable() {
        let map = Keymap.standard
        let expected: [(Key, Action)] = [
            (.character("j"), .down), (.down, .down), (.character("k"), .up), (.control("d"), .halfPageDown),
            (.control("u"), .halfPageUp), (.pageDown, .pageDown), (.pageUp, .pageUp), (.character("g"), .top),
            (.character("G"), .bottom), (.home, .top), (.end, .bottom), (.character(" "), .toggleSelection),
            (.character("v"), .visualRange), (.character("a"), .selectAll), (.character("i"), .invert), (.escape, .cancel),
            (.character("/"), .filter), (.character("f"), .tagFilter), (.character("s"), .cycleSort), (.character("3"), .tag3),
            (.character("t"), .tagPicker), (.character("T"), .manageTags), (.character("u"), .undo), (.character("d"), .download),
            (.character("o"), .chooseVariant), (.character("D"), .queuePanel), (.enter, .details), (.character("?"), .help),
            (.character("q"), .quit), (.character("p"), .preview), (.tab, .grid), (.character("h"), .left),
            (.character("l"), .right), (.left, .left), (.right, .right),
        ]
        for (key, action) in expected {
            #expect(map.action(for: key, in: .browse) == action, "\(key.name)")
        }
        #expect(map.action(for: .character("p"), in: .queue) == .queuePause)
        #expect(map.action(for: .character("x"), in: .queue) == .queueCancel)
        #expect(map.action(for: .character("+"), in: .queue) == .concurrencyUp)
        #expect(map.action(for: .character("x"), in: .browse) == nil)
    }

    @Test func everyActionHasAKeyAndNoKeyIsBoundTwiceInAContext() {
        let map = Keymap.standard
        for action in Action.allCases {
            #expect(!(map.bindings[action] ?? []).isEmpty, "\(action.rawValue)")
        }
        for context in Action.Context.allCases {
            let keys = Action.allCases.filter { $0.context == context }.flatMap { map.bindings[$0] ?? [] }
            #expect(Set(keys).count == keys.count, "\(context)")
        }
    }

    @Test func rebindingRefusesAKeyAnotherActionHolds() throws {
        var map = Keymap.standard
        #expect(throws: Keymap.Conflict(key: .character("k"), holder: .up)) { try map.rebind(.down, to: [.character("k")]) }
        try map.rebind(.down, to: [.character("n")])
        #expect(map.action(for: .character("n"), in: .browse) == .down)
        #expect(map.action(for: .character("j"), in: .browse) == nil)
        // The queue has its own context: x there does not clash with a browse key.
        try map.rebind(.help, to: [.character("x")])
        #expect(map.action(for: .character("x"), in: .queue) == .queueCancel)
        #expect(map.action(for: .character("x"), in: .browse) == .help)
    }
}
