import Foundation
import PhotoBrowser
import PhotoPickKit
import PhotoPickSettings

/// photopick's settings from `$XDG_CONFIG_HOME/photopick/config.toml`. Every key is optional; a
/// setting that is wrong is refused with the file, line and key, never guessed at.
public struct Config: Sendable, Equatable {
    /// `api_url`: the API's base URL.
    public var apiURL: URL?
    /// A key written in the file itself; the file must then be private.
    public var apiKey: APIKey?
    /// `api_key_file`: a file that holds the key.
    public var apiKeyFile: URL?
    /// `download_dir`: where downloads go.
    public var downloadDirectory: URL?
    /// `variant`: what `d` downloads.
    public var variant: DownloadSize?
    /// `concurrency`: downloads at once.
    public var concurrency: Int?
    /// `pairs`: which files of a RAW+JPEG pair `d`, `get` and `sync` take; nil is both.
    package var pairs: PairDownloads?
    /// `theme`: the colours.
    public var theme: ThemeName?
    /// `graphics`: how previews are drawn; nil is `auto`.
    public var graphics: GraphicsMode?
    /// The bound of the preview cache on disk, in MB; 0 keeps no previews on disk.
    public var previewCacheMegabytes: Int?
    /// `refresh`: when the local catalogue is checked against the server; nil is hourly.
    public var refresh: RefreshPolicy?
    /// `tag_freshness`: seconds since a page or read saw a photo's tags within which an edit is written
    /// without reading them again; 0 always reads.
    public var tagFreshnessSeconds: Int?
    /// `keep_originals`: where a purge downloads and verifies each original before deleting it.
    public var keepOriginals: URL?
    /// `purge_limit`: photos one purge may delete at most; nil is 500.
    public var purgeLimit: Int?
    /// `[cull]`: the tag names marks are stored as.
    public var markNames = MarkNames()
    /// `burst_gap`: seconds between frames of one burst at most; nil is 2.
    public var burstGap: Double?
    /// `clipping_warning`: the percent of pixels clipped at either end past which a histogram warns; nil is 1.
    public var clippingWarningPercent: Double?
    /// `[searches]`: named queries, in the file's order.
    public var savedSearches: [SavedSearch] = []
    /// The standard keys with the file's `[keys]` rebindings.
    public var keymap = Keymap.standard
    /// Things worth telling the user that do not stop photopick, such as a key file others can read.
    public var warnings: [String] = []

    /// The defaults: no file.
    public init() {}

    /// The settings in `text`, read from `file` (named in errors). `home` expands `~`.
    public init(parsing text: String, file: String, home: String = NSHomeDirectory()) throws(ConfigError) {
        let document: ConfigFile
        do {
            document = try ConfigFile(parsing: text)
        } catch {
            // The parser may quote what it could not read; on a line that may hold the key, that would be the secret.
            let reason = !error.mayQuoteSecret ? error.reason
                : error.key == "api_key" ? "write the key as a quoted string"
                : "not valid TOML; check the quotes (the line is not quoted back, as it may hold the API key)"
            throw ConfigError(file: file, line: error.line, key: error.key, reason: reason)
        }
        var rebindings: [KeyRebinding] = []
        for entry in document.entries {
            func fail(_ reason: String) -> ConfigError {
                ConfigError(file: file, line: entry.line, key: entry.dottedKey, reason: reason)
            }
            func string() throws(ConfigError) -> String {
                guard case .string(let value) = entry.value else { throw fail("expected a string, found \(entry.value.typeName)") }
                return value
            }
            func integer() throws(ConfigError) -> Int {
                guard case .integer(let value) = entry.value else { throw fail("expected an integer, found \(entry.value.typeName)") }
                return value
            }
            /// An integer or a float; `what` names it in the refusal ("expected a percentage, found a string").
            func number(_ what: String) throws(ConfigError) -> Double {
                switch entry.value {
                case .integer(let value): return Double(value)
                case .float(let value): return value
                default: throw fail("expected \(what), found \(entry.value.typeName)")
                }
            }
            func path() throws(ConfigError) -> URL {
                let value = try string()
                guard !value.isEmpty else { throw fail("the path is empty") }
                let expanded = value == "~" ? home : value.hasPrefix("~/") ? home + value.dropFirst(1) : value
                guard expanded.hasPrefix("/") else { throw fail("write an absolute path or one starting with ~/, not \"\(value)\"") }
                return URL(fileURLWithPath: expanded)
            }
            switch entry.path {
            case ["api_url"]:
                let value = try string()
                guard let url = Self.httpURL(value) else {
                    throw fail("\"\(value)\" is not an http(s) URL; write it like https://api.photopick.cz/api/v1")
                }
                apiURL = url
            case ["api_key"]:
                let key = try APIKey(string())
                guard !key.secret.isEmpty else { throw fail("the key is empty") }
                apiKey = key
            case ["api_key_file"]: apiKeyFile = try path()
            case ["download_dir"]: downloadDirectory = try path()
            case ["variant"]:
                let value = try string()
                guard let size = DownloadSize(rawValue: value) else {
                    throw fail("unknown variant \"\(value)\"; use one of \(DownloadSize.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                variant = size
            case ["pairs"]:
                let value = try string()
                guard let chosen = PairDownloads(rawValue: value) else {
                    throw fail("unknown choice \"\(value)\"; use both, raw or jpeg (the JPEG or HEIC of a RAW+JPEG pair)")
                }
                pairs = chosen
            case ["concurrency"]:
                let value = try integer()
                let range = DownloadQueue.concurrencyRange
                guard range.contains(value) else { throw fail("\(value) is out of range; use \(range.lowerBound) to \(range.upperBound)") }
                concurrency = value
            case ["keep_originals"]: keepOriginals = try path()
            case ["purge_limit"]:
                let value = try integer()
                guard (1...100_000).contains(value) else { throw fail("\(value) is out of range; use 1 to 100000 photos") }
                purgeLimit = value
            case ["preview_cache_mb"]:
                let value = try integer()
                guard (0...100_000).contains(value) else { throw fail("\(value) is out of range; use 0 (no disk cache) to 100000") }
                previewCacheMegabytes = value
            case ["refresh"]:
                let value = try string()
                guard let policy = RefreshPolicy(rawValue: value) else {
                    throw fail("unknown refresh \"\(value)\"; use one of \(RefreshPolicy.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                refresh = policy
            case ["tag_freshness"]:
                let value = try integer()
                guard (0...3600).contains(value) else { throw fail("\(value) is out of range; use 0 (always read first) to 3600 seconds") }
                tagFreshnessSeconds = value
            case ["theme"]:
                let value = try string()
                guard let name = ThemeName(rawValue: value) else {
                    throw fail("unknown theme \"\(value)\"; use one of \(ThemeName.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                theme = name
            case ["graphics"]:
                let value = try string()
                guard let mode = GraphicsMode(rawValue: value) else {
                    throw fail("unknown graphics mode \"\(value)\"; use one of \(GraphicsMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                graphics = mode
            case ["burst_gap"]:
                let value = try number("a number of seconds")
                guard value > 0, value <= 60 else { throw fail("\(value.formatted()) is out of range; use more than 0 and at most 60 seconds") }
                burstGap = value
            case ["clipping_warning"]:
                let value = try number("a percentage")
                guard value >= 0, value <= 100 else { throw fail("\(value.formatted()) is out of range; use a percentage from 0 to 100, such as 1 or 0.5") }
                clippingWarningPercent = value
            case ["cull"] where entry.value == .emptyTable, ["searches"] where entry.value == .emptyTable: break
            case let path where path.count == 2 && path[0] == "cull":
                guard let mark = MarkNames.mark(forConfigKey: path[1]) else {
                    throw fail("no mark is called \"\(path[1])\"; the marks are \(Mark.all.map(\.configKey).joined(separator: ", "))")
                }
                let name = try string().trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { throw fail("the tag name is empty") }
                markNames.rename(mark, to: name)
                if let (first, second) = markNames.clash {
                    throw fail("\(first.configKey) and \(second.configKey) would both be the tag \"\(markNames.name(of: second))\"; give each mark its own tag")
                }
            case let path where path.count == 2 && path[0] == "searches":
                let query = try string()
                if let problem = PhotoQuery(query).problems.first {
                    throw fail("\(problem.token.text): \(problem.reason)")
                }
                savedSearches.append(SavedSearch(name: path[1], query: query))
            case ["keys"] where entry.value == .emptyTable: break  // `[keys]` with nothing under it yet
            case let path where path.count == 2 && path[0] == "keys":
                rebindings.append(try KeyRebinding(entry, file: file))
            default:
                throw fail("unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, pairs, concurrency, theme, graphics, preview_cache_mb, refresh, tag_freshness, burst_gap, clipping_warning, keep_originals, purge_limit, [keys], [cull] and [searches]")
            }
        }
        try apply(rebindings, file: file)
    }

    /// The config at `url`, or the defaults when there is none. The file's permissions are checked when
    /// it holds a key, and so are those of the key file it names.
    public static func load(from url: URL, mustExist: Bool) throws(ConfigError) -> Config {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            let missing = (error as NSError).domain == NSCocoaErrorDomain && (error as NSError).code == NSFileReadNoSuchFileError
            if missing && !mustExist { return Config() }
            let reason = missing ? "no such file; check the path given to --config" : "cannot be read as UTF-8 text (\((error as NSError).localizedDescription))"
            throw ConfigError(file: url.path, line: nil, key: nil, reason: reason)
        }
        var config = try Config(parsing: text, file: url.path)
        if config.apiKey != nil, let warning = Self.exposure(of: url, holding: "an API key") {
            config.warnings.append(warning)
        }
        if let keyFile = config.apiKeyFile, let warning = Self.exposure(of: keyFile, holding: "the API key") {
            config.warnings.append(warning)
        }
        return config
    }

    /// A warning when others may read a file that holds a key.
    public static func exposure(of url: URL, holding what: String) -> String? {
        var status = stat()
        guard stat(url.path, &status) == 0, status.st_mode & 0o077 != 0 else { return nil }
        return "\(url.path) holds \(what) and others can read it; run chmod 600 \(url.path)"
    }

    /// `text` as a URL when it is an http or https URL with a host; nil otherwise.
    public static func httpURL(_ text: String) -> URL? {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host != nil else {
            return nil
        }
        return url
    }
}
