import Foundation
@testable import PhotoPickConfig
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import PhotoPickSettings

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
            refresh = "manual"
            tag_freshness = 0

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
        #expect(config.refresh?.rawValue == "manual" && config.tagFreshnessSeconds == 0)
        #expect(config.keymap.action(for: .character("n"), in: .browse) == .down)
        #expect(config.keymap.action(for: .character("e"), in: .browse) == .up)
        #expect(config.keymap.action(for: .character("k"), in: .browse) == nil)
        #expect(config.keymap.action(for: .control("q"), in: .browse) == .quit)
        #expect(config.apiKey == nil)
    }

    @Test func cullNamesSavedSearchesAndTheBurstGapAreRead() throws {
        let text = """
            burst_gap = 1.5
            clipping_warning = 0.5

            [cull]
            pick = "Keeper"
            rating_5 = "★★★★★"
            purple = "Violet"

            [searches]
            keepers = "rating>=3 -reject"
            "trip 2024" = "#Travel taken:2024"

            [keys]
            rate-0 = "`"
            """
        let config = try Config(parsing: text, file: "/c.toml", home: "/home/ana")
        #expect(config.burstGap == 1.5 && config.clippingWarningPercent == 0.5)
        #expect(config.markNames.name(of: .flag(.pick)) == "Keeper")
        #expect(config.markNames.name(of: .rating(5)) == "★★★★★")
        #expect(config.markNames.name(of: .label(.purple)) == "Violet")
        #expect(config.markNames.name(of: .flag(.reject)) == "Reject")
        #expect(config.savedSearches == [
            SavedSearch(name: "keepers", query: "rating>=3 -reject"), SavedSearch(name: "trip 2024", query: "#Travel taken:2024"),
        ])
        #expect(config.keymap.action(for: .character("`"), in: .cull) == .rate0)
        #expect(config.keymap.action(for: .character("0"), in: .cull) == nil)
    }

    @Test func aCullKeyThatHidesABrowsingKeyIsWarnedOfButTheDigitsAreNot() throws {
        let config = try Config(parsing: "[keys]\nlabel-purple = \"P\"\nrate-1 = \"1\"\ndownload = \"7\"", file: "/c.toml")
        #expect(config.warnings == [
            "/c.toml:4, key keys.download: 7 now does download instead of tag-7, which has no key left",
            "/c.toml:2, key keys.label-purple: in cull mode P does label-purple, not pick",
            "/c.toml:4, key keys.download: in cull mode 7 does label-yellow, not download",
        ])
        #expect(try Config(parsing: "[keys]\nrate-1 = \"1\"", file: "/c.toml").warnings.isEmpty, "the digits over the tag keys are meant")
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

    @Test func inlineTablesAndTOMLOneFeaturesAreRead() throws {
        // The hand-written parser refused inline tables; TOMLKit reads all of TOML 1.0.
        let text = [
            "concurrency = 0x4  # hexadecimal",
            #"'theme' = """"#,
            #"light""""#,
            #"keys = { down = ["n", "down"], "up" = 'e' }"#,
        ].joined(separator: "\n")
        let config = try Config(parsing: text, file: "/c.toml")
        #expect(config.concurrency == 4)
        #expect(config.theme == .light)
        #expect(config.keymap.action(for: .character("n"), in: .browse) == .down)
        #expect(config.keymap.action(for: .character("e"), in: .browse) == .up)
    }

    @Test func anErrorInsideAnInlineTableNamesItsLineAndFullKey() {
        #expect(throws: ConfigError(file: "/c.toml", line: 3, key: "keys.jump", reason: "no action is called \"jump\"; the actions are listed in the README under Keys")) {
            try Config(parsing: "theme = \"dark\"\n\nkeys = { down = \"n\", jump = \"x\" }\n", file: "/c.toml")
        }
    }

    @Test func aDottedOrQuotedKeyIsFoundOnItsLine() {
        #expect(throws: ConfigError(file: "/c.toml", line: 4, key: "keys.\"select all\"", reason: "no action is called \"select all\"; the actions are listed in the README under Keys")) {
            try Config(parsing: "# keys\n[keys]\ndown = \"n\"\n\"select all\" = \"A\"\n", file: "/c.toml")
        }
        #expect(throws: ConfigError(file: "/c.toml", line: 2, key: "keys.top", reason: "\"ctrl-gg\" is not a key; write keys like j, G, ctrl-d, pgdn, space, enter, esc or f2")) {
            try Config(parsing: "theme = \"mono\"\nkeys . top = \"ctrl-gg\"\n", file: "/c.toml")
        }
    }

    @Test func aKeyWrittenBadlyIsNeverQuotedBack() {
        for text in ["api_key = pp_live_s3cret", "api_key = \"pp_live_s3cret", "api_key = 'pp_live_s3cret\\"] {
            do {
                _ = try Config(parsing: text, file: "/c.toml")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.description == "/c.toml:1, key api_key: write the key as a quoted string")
                #expect(!error.description.contains("s3cret"))
            }
        }
    }

    @Test func aFunctionKeyBindsAndShowsAsF5() throws {
        let config = try Config(parsing: "[keys]\nreload = \"F5\"\n", file: "/c.toml")
        #expect(config.keymap.bindings[.reload] == [.function(5)])
        #expect(config.keymap.hint(.reload) == "F5")
        #expect(config.keymap.action(for: .character("R"), in: .browse) == nil)
    }

    @Test func aFileWrittenOnWindowsNamesTheRightLines() {
        #expect(throws: ConfigError(file: "/c.toml", line: 3, key: "keys.jump", reason: "no action is called \"jump\"; the actions are listed in the README under Keys")) {
            try Config(parsing: "theme = \"dark\"\r\n[keys]\r\njump = \"x\"\r\n", file: "/c.toml")
        }
    }

    @Test func linesOfArraysAndCommentsAreNotTakenForKeysOrTables() {
        let text = [
            #"variant = "web"  # a comment with """ in it"#,
            "list = [",
            "  [1, 2],",
            #"  ["x"],"#,
            "]",
            "theme = 7",
            #"notes = """"#,
            "concurrency = 2",
            String(repeating: "\"", count: 3),
            "[keys]",
            "down = 'n'",
        ].joined(separator: "\n")
        let index = KeyLineIndex(text)
        #expect(index.line(of: ["variant"]) == 1)
        #expect(index.line(of: ["list"]) == 2)
        #expect(index.key(onLine: 3) == nil && index.key(onLine: 4) == nil)
        #expect(index.line(of: ["theme"]) == 6)
        #expect(index.line(of: ["notes"]) == 7)
        #expect(index.key(onLine: 8) == nil, "inside a multi-line string")
        #expect(index.line(of: ["keys", "down"]) == 11)
    }

    @Test func anEmptyTableIsRefusedWhereAValueBelongsButAnEmptyKeysTableIsFine() throws {
        #expect(throws: ConfigError(file: "/c.toml", line: 1, key: "concurrency", reason: "expected an integer, found a table")) {
            try Config(parsing: "concurrency = {}", file: "/c.toml")
        }
        #expect(try Config(parsing: "[keys]\n# none yet\n", file: "/c.toml") == Config())
    }

    @Test func aSyntaxErrorOnAnyLineHoldingTheKeyIsNotQuotedBack() {
        do {
            _ = try Config(parsing: "[auth]\napi_key = tru3s3cret", file: "/c.toml")
            Issue.record("accepted")
        } catch {
            #expect(!error.description.contains("s3cret") && !error.description.contains("tru"))
            #expect(error.line == 2)
        }
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
        ("variant = \"huge\"", "/c.toml:1, key variant: unknown variant \"huge\"; use one of original, jpeg, a4, fhd, web"),
        ("theme = \"neon\"", "/c.toml:1, key theme: unknown theme \"neon\"; use one of dark, light, mono"),
        ("graphics = \"sixels\"", "/c.toml:1, key graphics: unknown graphics mode \"sixels\"; use one of auto, kitty, sixel, iterm, symbols"),
        ("api_url = \"ftp://x\"", "/c.toml:1, key api_url: \"ftp://x\" is not an http(s) URL; write it like https://api.photopick.cz/api/v1"),
        ("download_dir = \"Pictures\"", "/c.toml:1, key download_dir: write an absolute path or one starting with ~/, not \"Pictures\""),
        ("clipping_warning = 101", "/c.toml:1, key clipping_warning: 101 is out of range; use a percentage from 0 to 100, such as 1 or 0.5"),
        ("clipping_warning = \"1%\"", "/c.toml:1, key clipping_warning: expected a percentage, found a string"),
        ("burst_gap = 0", "/c.toml:1, key burst_gap: 0 is out of range; use more than 0 and at most 60 seconds"),
        ("burst_gap = \"2s\"", "/c.toml:1, key burst_gap: expected a number of seconds, found a string"),
        ("[cull]\nstar = \"Star\"", "/c.toml:2, key cull.star: no mark is called \"star\"; the marks are pick, reject, rating_1, rating_2, rating_3, rating_4, rating_5, red, yellow, green, blue, purple"),
        ("[cull]\nrating_1 = \"  \"", "/c.toml:2, key cull.rating_1: the tag name is empty"),
        ("[cull]\nrating_1 = \"reject\"", "/c.toml:2, key cull.rating_1: reject and rating_1 would both be the tag \"reject\"; give each mark its own tag"),
        ("[searches]\nfast = \"iso>=lots\"", "/c.toml:2, key searches.fast: iso>=lots: “lots” is not a number; write it like iso>=3200"),
        ("[searches]\nfast = 3", "/c.toml:2, key searches.fast: expected a string, found an integer"),
        ("colour = \"red\"", "/c.toml:1, key colour: unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, pairs, concurrency, theme, graphics, preview_cache_mb, refresh, tag_freshness, burst_gap, clipping_warning, keep_originals, purge_limit, [keys], [cull] and [searches]"),
        ("refresh = \"daily\"", "/c.toml:1, key refresh: unknown refresh \"daily\"; use one of on-start, hourly, manual"),
        ("tag_freshness = 86400", "/c.toml:1, key tag_freshness: 86400 is out of range; use 0 (always read first) to 3600 seconds"),
        ("preview_cache_mb = -1", "/c.toml:1, key preview_cache_mb: -1 is out of range; use 0 (no disk cache) to 100000"),
        ("\n\n[keys]\njump = \"x\"", "/c.toml:4, key keys.jump: no action is called \"jump\"; the actions are listed in the README under Keys"),
        ("[keys]\ndown = \"ctrl-dd\"", "/c.toml:2, key keys.down: \"ctrl-dd\" is not a key; write keys like j, G, ctrl-d, pgdn, space, enter, esc or f2"),
        ("[keys]\ndown = [1]", "/c.toml:2, key keys.down: expected key names as strings, found an integer"),
        ("[keys]\nhelp = \"k\"\nreload = \"k\"", "/c.toml:3, key keys.reload: k already does help; rebind help too, or choose another key"),
        ("theme = \"dark", "/c.toml:1, key theme: not valid TOML: error while parsing string: encountered end-of-file"),
        ("theme = 1979-05-27", "/c.toml:1, key theme: expected a string, found a date or time"),
        ("\n[[keys]]\ndown = \"n\"", "/c.toml:2, key keys: unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, pairs, concurrency, theme, graphics, preview_cache_mb, refresh, tag_freshness, burst_gap, clipping_warning, keep_originals, purge_limit, [keys], [cull] and [searches]"),
        ("refresh = \"daily\"", "/c.toml:1, key refresh: unknown refresh \"daily\"; use one of on-start, hourly, manual"),
        ("tag_freshness = 86400", "/c.toml:1, key tag_freshness: 86400 is out of range; use 0 (always read first) to 3600 seconds"),
        ("notes = \"\"\"\nconcurrency = 1\n\"\"\"\nconcurrency = 99", "/c.toml:1, key notes: unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, pairs, concurrency, theme, graphics, preview_cache_mb, refresh, tag_freshness, burst_gap, clipping_warning, keep_originals, purge_limit, [keys], [cull] and [searches]"),
        ("refresh = \"daily\"", "/c.toml:1, key refresh: unknown refresh \"daily\"; use one of on-start, hourly, manual"),
        ("tag_freshness = 86400", "/c.toml:1, key tag_freshness: 86400 is out of range; use 0 (always read first) to 3600 seconds"),
        ("variant = \"web\"\nlist = [\n  1,\n  2,\n]\nconcurrency = 99", "/c.toml:2, key list: unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, pairs, concurrency, theme, graphics, preview_cache_mb, refresh, tag_freshness, burst_gap, clipping_warning, keep_originals, purge_limit, [keys], [cull] and [searches]"),
        ("refresh = \"daily\"", "/c.toml:1, key refresh: unknown refresh \"daily\"; use one of on-start, hourly, manual"),
        ("tag_freshness = 86400", "/c.toml:1, key tag_freshness: 86400 is out of range; use 0 (always read first) to 3600 seconds"),
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

    @Test func thePathsFollowXDG() {
        let set = Paths(environment: [
            "XDG_CONFIG_HOME": "/x/conf", "XDG_STATE_HOME": "/x/state", "XDG_CACHE_HOME": "/x/cache", "XDG_DATA_HOME": "/x/data",
            "XDG_DOWNLOAD_DIR": "/x/dl", "HOME": "/home/ana",
        ])
        #expect(set.configFile.path == "/x/conf/photopick/config.toml")
        #expect(set.stateDirectory.path == "/x/state/photopick")
        #expect(set.previewCache.path == "/x/cache/photopick/previews")
        #expect(set.demoLibrary.path == "/x/data/photopick/demo")
        #expect(set.downloads.path == "/x/dl/photopick")
        // A relative value is ignored, as the XDG specification says.
        let fallback = Paths(environment: ["HOME": "/home/ana", "XDG_STATE_HOME": "state"])
        #expect(fallback.configFile.path == "/home/ana/.config/photopick/config.toml")
        #expect(fallback.stateDirectory.path == "/home/ana/.local/state/photopick")
        #expect(fallback.previewCache.path == "/home/ana/.cache/photopick/previews")
        #expect(fallback.demoLibrary.path == "/home/ana/.local/share/photopick/demo")
        #expect(fallback.downloads.path == "/home/ana/Downloads/photopick")
    }
}
