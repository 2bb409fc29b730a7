import Foundation
import PhotoBrowser
import PhotoPickKit

/// photopick's settings from `$XDG_CONFIG_HOME/photopick/config.toml`. Every key is optional; a
/// setting that is wrong is refused with the file, line and key, never guessed at.
public struct Config: Sendable, Equatable {
    public var apiURL: URL?
    /// A key written in the file itself; the file must then be private.
    public var apiKey: APIKey?
    public var apiKeyFile: URL?
    public var downloadDirectory: URL?
    public var variant: DownloadSize?
    public var concurrency: Int?
    public var theme: Theme.Name?
    /// The bound of the preview cache on disk, in MB; 0 keeps no previews on disk.
    public var previewCacheMegabytes: Int?
    public var keymap = Keymap.standard
    /// Things worth telling the user that do not stop photopick, such as a key file others can read.
    public var warnings: [String] = []

    public init() {}

    /// The settings in `text`, read from `file` (named in errors). `home` expands `~`.
    public init(parsing text: String, file: String, home: String = NSHomeDirectory()) throws(ConfigError) {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: text)
        } catch {
            // The parser quotes what it could not read; for a key, that would be the secret.
            let secret = error.key == "api_key"
            throw ConfigError(file: file, line: error.line, key: error.key, reason: secret ? "write the key as a quoted string" : error.reason)
        }
        var rebindings: [(action: Action, keys: [Key], entry: TOMLDocument.Entry)] = []
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
            case ["concurrency"]:
                let value = try integer()
                let range = DownloadQueue.concurrencyRange
                guard range.contains(value) else { throw fail("\(value) is out of range; use \(range.lowerBound) to \(range.upperBound)") }
                concurrency = value
            case ["preview_cache_mb"]:
                let value = try integer()
                guard (0...100_000).contains(value) else { throw fail("\(value) is out of range; use 0 (no disk cache) to 100000") }
                previewCacheMegabytes = value
            case ["theme"]:
                let value = try string()
                guard let name = Theme.Name(rawValue: value) else {
                    throw fail("unknown theme \"\(value)\"; use one of \(Theme.Name.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                theme = name
            case let path where path.count == 2 && path[0] == "keys":
                guard let action = Action(rawValue: path[1]) else {
                    throw fail("no action is called \"\(path[1])\"; the actions are listed in the README under Keys")
                }
                let names: [String]
                switch entry.value {
                case .string(let name): names = [name]
                case .array(let values):
                    names = try values.map { value throws(ConfigError) -> String in
                        guard case .string(let name) = value else { throw fail("expected key names as strings, found \(value.typeName)") }
                        return name
                    }
                default: throw fail("expected a key name or an array of them, found \(entry.value.typeName)")
                }
                let keys = try names.map { name throws(ConfigError) -> Key in
                    guard let key = Key(name: name) else {
                        throw fail("\"\(name)\" is not a key; write keys like j, G, ctrl-d, pgdn, space, enter, esc or f2")
                    }
                    return key
                }
                rebindings.append((action, keys, entry))
            default:
                throw fail("unknown setting; the settings are api_url, api_key, api_key_file, download_dir, variant, concurrency, theme, preview_cache_mb and [keys]")
            }
        }
        // Rebound actions give up their old keys first, so two actions can swap keys; a key the file
        // binds is taken from an action that has it only by default (as `p`, added in a later version).
        // Only two bindings in the file can clash.
        let rebound = Set(rebindings.map(\.action))
        for rebinding in rebindings {
            for key in keymap.bindings[rebinding.action, default: []] { keymap.unbind(key, in: rebinding.action.context) }
        }
        for rebinding in rebindings {
            for key in rebinding.keys {
                if let holder = keymap.action(for: key, in: rebinding.action.context), !rebound.contains(holder) {
                    keymap.unbind(key, in: rebinding.action.context)
                    let left = keymap.keyNames(holder)
                    warnings.append("\(file):\(rebinding.entry.line), key \(rebinding.entry.dottedKey): \(key.name) now does \(rebinding.action.rawValue) instead of \(holder.rawValue)" + (left.isEmpty ? ", which has no key left" : ""))
                }
            }
        }
        for rebinding in rebindings {
            do {
                try keymap.rebind(rebinding.action, to: rebinding.keys)
            } catch {
                guard case .taken(let key, let holder) = error else { continue }
                throw ConfigError(
                    file: file, line: rebinding.entry.line, key: rebinding.entry.dottedKey,
                    reason: "\(key.name) already does \(holder.rawValue); rebind \(holder.rawValue) too, or choose another key"
                )
            }
        }
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

    /// `$XDG_CONFIG_HOME/photopick/config.toml`, by default `~/.config/photopick/config.toml`.
    public static func defaultLocation(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGDirectory.resolve("XDG_CONFIG_HOME", fallback: ".config", components: "photopick", environment: environment)
            .appending(path: "config.toml", directoryHint: .notDirectory)
    }
}

/// A config file photopick cannot use, as one line naming the file, line, key and fix.
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    public let file: String
    public let line: Int?
    public let key: String?
    public let reason: String

    public init(file: String, line: Int?, key: String?, reason: String) {
        self.file = file
        self.line = line
        self.key = key
        self.reason = reason
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let key { place += ", key \(key)" }
        return "\(place): \(reason)"
    }
}
