import Foundation
import PhotoPickKit
import Testing
@testable import TerminalUI

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
        #expect(throws: Keymap.Conflict.taken(.character("k"), by: .up)) { try map.rebind(.down, to: [.character("k")]) }
        try map.rebind(.down, to: [.character("n")])
        #expect(map.action(for: .character("n"), in: .browse) == .down)
        #expect(map.action(for: .character("j"), in: .browse) == nil)
        // The queue has its own context: x there does not clash with a browse key.
        try map.rebind(.help, to: [.character("x")])
        #expect(map.action(for: .character("x"), in: .queue) == .queueCancel)
        #expect(map.action(for: .character("x"), in: .browse) == .help)
    }
}

@Suite struct ConfigTests {
    @Test func aFullConfigIsRead() throws {
        let text = """
            # photopick
            api_url = "https://photos.example.com/api/v1"
            api_key_file = "~/.config/photopick/key"
            download_dir = "~/Pictures/picked"
            variant = "fhd"
            concurrency = 6
            theme = "light"
            preview_cache_mb = 64

            [keys]
            down = ["n", "down"]
            up = "e"
            quit = ["q", "ctrl-q"]
            """
        let config = try Config(parsing: text, file: "/c.toml", home: "/home/ana")
        #expect(config.apiURL?.absoluteString == "https://photos.example.com/api/v1")
        #expect(config.apiKeyFile?.path == "/home/ana/.config/photopick/key")
        #expect(config.downloadDirectory?.path == "/home/ana/Pictures/picked")
        #expect(config.variant == .fhd)
        #expect(config.concurrency == 6)
        #expect(config.theme == .light)
        #expect(config.previewCacheMegabytes == 64)
        #expect(config.keymap.action(for: .character("n"), in: .browse) == .down)
        #expect(config.keymap.action(for: .character("e"), in: .browse) == .up)
        #expect(config.keymap.action(for: .character("k"), in: .browse) == nil)
        #expect(config.keymap.action(for: .control("q"), in: .browse) == .quit)
        #expect(config.apiKey == nil)
    }

    @Test func aKeyTheFileBindsIsTakenFromAnActionThatHasItByDefault() throws {
        // A config written before `p` previewed: its binding still holds, and the preview loses the key.
        let config = try Config(parsing: "[keys]\nhelp = \"p\"\ndetails = \"k\"", file: "/c.toml")
        #expect(config.keymap.action(for: .character("p"), in: .browse) == .help)
        #expect(config.keymap.action(for: .character("k"), in: .browse) == .details)
        #expect(config.keymap.action(for: .up, in: .browse) == .up)
        #expect(config.warnings == [
            "/c.toml:2, key keys.help: p now does help instead of preview, which has no key left",
            "/c.toml:3, key keys.details: k now does details instead of up",
        ])
    }

    @Test func anEmptyConfigKeepsTheDefaults() throws {
        let config = try Config(parsing: "", file: "/c.toml")
        #expect(config == Config())
    }

    @Test func twoActionsCanSwapKeys() throws {
        let config = try Config(parsing: "[keys]\ndown = \"k\"\nup = \"j\"\n", file: "/c.toml")
        #expect(config.keymap.action(for: .character("k"), in: .browse) == .down)
        #expect(config.keymap.action(for: .character("j"), in: .browse) == .up)
    }

    @Test(arguments: [
        ("concurrency = 40", "/c.toml:1, key concurrency: 40 is out of range; use 1 to 16"),
        ("concurrency = \"4\"", "/c.toml:1, key concurrency: expected an integer, found a string"),
        ("variant = \"huge\"", "/c.toml:1, key variant: unknown variant \"huge\"; use one of original, a4, fhd, web"),
        ("theme = \"neon\"", "/c.toml:1, key theme: unknown theme \"neon\"; use one of dark, light, mono"),
        ("api_url = \"ftp://x\"", "/c.toml:1, key api_url: \"ftp://x\" is not an http(s) URL; write it like https://api.photopick.cz/api/v1"),
        ("download_dir = \"Pictures\"", "/c.toml:1, key download_dir: write an absolute path or one starting with ~/, not \"Pictures\""),
        ("colour = \"red\"", "/c.toml:1, key colour: unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, concurrency, theme, preview_cache_mb and [keys]"),
        ("preview_cache_mb = -1", "/c.toml:1, key preview_cache_mb: -1 is out of range; use 0 (no disk cache) to 100000"),
        ("\n\n[keys]\njump = \"x\"", "/c.toml:4, key keys.jump: no action is called \"jump\"; the actions are listed in the README under Keys"),
        ("[keys]\ndown = \"ctrl-dd\"", "/c.toml:2, key keys.down: \"ctrl-dd\" is not a key; write keys like j, G, ctrl-d, pgdn, space, enter, esc or f2"),
        ("[keys]\ndown = [1]", "/c.toml:2, key keys.down: expected key names as strings, found an integer"),
        ("[keys]\nhelp = \"k\"\nreload = \"k\"", "/c.toml:3, key keys.reload: k already does help; rebind help too, or choose another key"),
        ("theme = \"dark", "/c.toml:1, key theme: unterminated string"),
    ])
    func aBadConfigIsOneLineNamingTheFileLineAndKey(text: String, message: String) {
        do {
            _ = try Config(parsing: text, file: "/c.toml")
            Issue.record("accepted \(text)")
        } catch {
            #expect(error.description == message)
            #expect(!error.description.contains("\n"))
        }
    }

    @Test func aConfigHoldingAKeyThatOthersCanReadGetsAWarning() throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "photopick-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appending(path: "config.toml")
        try Data("api_key = \"pp_live_secret\"\n".utf8).write(to: file)
        chmod(file.path, 0o644)
        let exposed = try Config.load(from: file, mustExist: true)
        #expect(exposed.apiKey == APIKey("pp_live_secret"))
        #expect(exposed.warnings == ["\(file.path) holds an API key and others can read it; run chmod 600 \(file.path)"])
        #expect(!exposed.warnings[0].contains("pp_live_secret"))
        chmod(file.path, 0o600)
        #expect(try Config.load(from: file, mustExist: true).warnings.isEmpty)
    }

    @Test func aMissingDefaultConfigIsFineButAMissingChosenOneIsNot() throws {
        let missing = URL(fileURLWithPath: "/nonexistent/photopick/config.toml")
        #expect(try Config.load(from: missing, mustExist: false) == Config())
        #expect(throws: ConfigError(file: missing.path, line: nil, key: nil, reason: "no such file; check the path given to --config")) {
            try Config.load(from: missing, mustExist: true)
        }
    }

    @Test func theDefaultLocationFollowsXDG() {
        #expect(Config.defaultLocation(environment: ["XDG_CONFIG_HOME": "/x/conf", "HOME": "/home/ana"]).path == "/x/conf/photopick/config.toml")
        #expect(Config.defaultLocation(environment: ["HOME": "/home/ana"]).path == "/home/ana/.config/photopick/config.toml")
    }
}
