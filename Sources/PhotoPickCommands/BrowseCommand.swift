import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickConfig
import TerminalUI
import PhotoPickSettings

/// The levels `--log-level` takes.
enum LogLevelName: String {
    case error, warning, info, debug
}

/// The default command: the terminal browser, on your library with a key, or on the demo library
/// served in-process without one.
struct BrowseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Browse a PhotoPick library in the terminal (the default command).",
        discussion: """
            With PHOTOPICK_API_KEY set (or api_key_file in the config) it opens your library; without a key it opens \
            a demo library served on loopback. Exit codes: 0 ok, 2 usage or config, 3 key refused or missing a scope, \
            4 network unreachable, 1 anything else.
            """
    )

    @Option(name: .customLong("download-dir"), help: ArgumentHelp("Folder downloads go to.", valueName: "dir"))
    var downloadDirectory: String?

    @Option(help: ArgumentHelp("Downloads at once, 1 to 16.", valueName: "n"))
    var concurrency: Int?

    @Option(name: .customLong("keep-originals"), help: ArgumentHelp("Where # keeps each original, verified, before deleting it (default: the config's keep_originals).", valueName: "dir"))
    var keepOriginals: String?

    @Option(help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/photopick/config.toml).", valueName: "file"))
    var config: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp("API base URL (default: https://api.photopick.cz/api/v1).", valueName: "url"))
    var apiURL: String?

    @Flag(name: .customLong("no-color"), help: "Monochrome, as with NO_COLOR.")
    var noColor = false

    @Option(help: ArgumentHelp("How previews are drawn: auto, kitty, sixel, iterm or symbols (default: PHOTOPICK_GRAPHICS, the config, else auto).", valueName: "mode"))
    var graphics: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("What the log keeps: error, warning, info or debug (debug adds a line per image placed).", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        let range = DownloadQueue.concurrencyRange
        if let concurrency, !range.contains(concurrency) {
            throw ValidationError("--concurrency \(concurrency) is out of range; use \(range.lowerBound) to \(range.upperBound).")
        }
        if let apiURL, Config.httpURL(apiURL) == nil {
            throw ValidationError("--api-url \(apiURL) is not an http(s) URL; write it like https://api.photopick.cz/api/v1.")
        }
        if let graphics, GraphicsMode(rawValue: graphics) == nil {
            throw ValidationError("--graphics \(graphics) is not a mode; use one of \(GraphicsMode.allCases.map(\.rawValue).joined(separator: ", ")).")
        }
        if let logLevel, LogLevelName(rawValue: logLevel) == nil {
            throw ValidationError("--log-level \(logLevel) is not a level; use error, warning, info or debug.")
        }
        if let keepOriginals, keepOriginals.isEmpty {
            throw ValidationError("--keep-originals is empty; give a folder.")
        }
        if let downloadDirectory, downloadDirectory.isEmpty {
            throw ValidationError("--download-dir is empty; give a folder.")
        }
    }

    func run() async throws {
        let status = await Launcher(options: self).run()
        if let message = status.message {
            FileHandle.standardError.write(Data("photopick: \(message)\n".utf8))
        }
        if status.code != 0 { throw ExitCode(status.code) }
    }
}
