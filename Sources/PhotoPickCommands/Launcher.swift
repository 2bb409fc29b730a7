import Foundation
import Logging
import PhotoBrowser
import PhotoPickConfig
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI
import PhotoPickSettings
import PhotoPickFormats

/// How the program ends: a code, and a line for stderr printed after the terminal is restored.
struct ExitStatus {
    var code: Int32
    var message: String?

    static let ok = ExitStatus(code: 0)
    static func usage(_ message: String) -> ExitStatus { ExitStatus(code: 2, message: message) }
}

/// Puts the browser together: config, key, log, the terminal, then the library (the demo server or the
/// API) and the session; and takes it all down again in the right order, the terminal first restored
/// before anything is printed.
@MainActor
struct Launcher {
    let options: BrowseCommand
    let environment: [String: String]
    let paths: Paths
    /// The browser's entry point: the one clock everything it opens waits on and dates by.
    let clock = Timekeeper.continuous
    /// A query the list opens filtered by (`photopick pick QUERY`).
    var initialQuery: String?
    /// Called with the final state when the user quits (not on a signal or a failure): `pick` prints
    /// the selection from it.
    var onQuit: (@MainActor (BrowserState) -> Void)?

    init(options: BrowseCommand, environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.options = options
        self.environment = environment
        paths = Paths(environment: environment)
    }

    func run() async -> ExitStatus {
        let config: Config
        let source: LibrarySource
        do {
            (config, source) = try Self.library(config: options.config, apiURL: options.apiURL, paths: paths, environment: environment)
        } catch {
            return .usage("\(error)")
        }
        let requested: GraphicsMode
        switch Self.graphicsMode(option: options.graphics, environment: environment, config: config) {
        case .success(let mode): requested = mode
        case .failure(let message): return .usage(message.description)
        }
        let logger = makeLogger()
        let colors = !options.noColor && (environment["NO_COLOR"] ?? "").isEmpty
        let driver = TerminalDriver(clock: clock)
        driver.logger = logger
        do {
            try driver.start(colors: colors, graphics: requested)
        } catch {
            return .usage(error.description)
        }
        let graphics = driver.graphics
        if let findings = driver.findings {
            logger.info("graphics: \(graphics.mode.rawValue) (\(graphics.reason)), colours \(graphics.depth), cell \(graphics.cell?.description ?? "unknown"), probe \(Figures.elapsed(milliseconds: Int(findings.elapsed.milliseconds)))")
            if let advice = graphics.advice { logger.info("graphics advice: \(advice)") }
        }
        let context = ViewContext(
            theme: Theme(name: .chosen(config: config.theme, backgroundIsLight: driver.findings?.replies?.background?.isLight), depth: driver.depth), keymap: config.keymap, demo: source.isDemo,
            now: clock.now(), graphics: graphics, clippingWarning: (config.clippingWarningPercent ?? 1) / 100
        )
        let app = TerminalApp(driver: driver, screen: Screen(context: context), controller: Controller(keymap: config.keymap), logger: logger, clock: clock)
        let resources = Resources()
        let opening: String
        switch source {
        case .demo: opening = "Opening the demo library…"
        case .api(let url, _): opening = "Connecting to \(url.host ?? url.absoluteString)…"
        }
        let ending = await app.run(opening: opening) {
            try await open(source, config: config, graphics: graphics, logger: logger, resources: resources)
        }
        // The terminal first: nothing after this needs it, and a hang in what follows must not leave it raw.
        driver.stop()
        if case .quit = ending, let state = app.session?.state { onQuit?(state) }
        await app.session?.stop()
        await resources.close()
        logger.info("stopped: \(ending)")
        switch ending {
        case .quit: return .ok
        case .signal(let number): return ExitStatus(code: 128 + number)
        case .failed(let error): return Self.status(for: error)
        }
    }

    /// Opens the library and makes the session; throws what should end the program. A library opened
    /// here before shows from its catalogue at once, and the server confirms it afterwards.
    private func open(_ source: LibrarySource, config: Config, graphics: Graphics, logger: Logger, resources: Resources) async throws -> OpenedLibrary {
        let connection = try await LibraryConnection.open(source, paths: paths, logger: logger, clock: clock, resources: resources, remembering: true)
        let session = try session(connection, config: config, logger: logger)
        guard connection.isRemembered else {
            return library(connection, session, config: config, graphics: graphics, logger: logger, resources: resources)
        }
        return library(connection, session, config: config, graphics: graphics, logger: logger, resources: resources) {
            try await confirm(connection, session: session, config: config, graphics: graphics, logger: logger, resources: resources)
        }
    }

    /// Asks the server about a library opened before it answered: the session goes on when the key is
    /// that account's, and another account's library replaces it otherwise.
    private func confirm(
        _ connection: LibraryConnection, session: BrowserSession, config: Config, graphics: Graphics, logger: Logger, resources: Resources
    ) async throws -> OpenedLibrary.Confirmation {
        switch try await connection.confirm(paths: paths, logger: logger) {
        case .same(let me, let name):
            session.confirm(me)
            return .confirmed(name: name)
        case .other(let other):
            // The loaders file under the library: the old ones go with it.
            await resources.previews?.stop()
            await resources.loupes?.stop()
            let replacement = try self.session(other, config: config, logger: logger)
            replacement.send(.status(.noticePosted(
                .warning, "This key belongs to another account than the library shown until now; showing this account's library."
            )))
            return .replaced(library(other, replacement, config: config, graphics: graphics, logger: logger, resources: resources))
        }
    }

    /// The session of a connected library; provisional while the connection is only remembered.
    private func session(_ connection: LibraryConnection, config: Config, logger: Logger) throws -> BrowserSession {
        var configuration = BrowserSession.Configuration.photopick(
            library: connection.library, config: config, paths: paths, downloadDirectory: options.downloadDirectory,
            concurrency: options.concurrency, logger: logger, clock: clock, account: connection.account
        )
        configuration.isProvisional = connection.isRemembered
        if let folder = options.keepOriginals {
            configuration.keepOriginals = URL(fileURLWithPath: NSString(string: folder).expandingTildeInPath, isDirectory: true).standardizedFileURL
        }
        let session = try BrowserSession(client: connection.client, configuration: configuration)
        for warning in config.warnings { session.send(.status(.noticePosted(.warning, warning))) }
        if let initialQuery, !initialQuery.isEmpty { session.send(.browsing(.filterTextChanged(initialQuery))) }
        return session
    }

    /// The library for the app: the session, and the loaders of its previews and originals.
    private func library(
        _ connection: LibraryConnection, _ session: BrowserSession, config: Config, graphics: Graphics, logger: Logger,
        resources: Resources, confirmation: (@MainActor @Sendable () async throws -> OpenedLibrary.Confirmation)? = nil
    ) -> OpenedLibrary {
        let client = connection.client, library = connection.library
        var disk: PreviewDiskCache?
        let megabytes = config.previewCacheMegabytes ?? PreviewDiskCache.defaultByteLimit >> 20
        do {
            if megabytes > 0 {
                disk = try PreviewDiskCache(
                    library: library, directory: paths.previewCache, byteLimit: megabytes << 20
                )
            }
        } catch {
            // Previews still work, fetched each time; the log says why nothing is kept.
            logger.warning("no preview cache: \(error)")
            disk = nil
        }
        let previews = PreviewLoader(client: client, disk: disk, render: graphics.renderer)
        resources.previews = previews
        // Originals are large: a cache of their own, so that looking closely never pushes previews out.
        let originals = try? PreviewDiskCache(library: library, directory: paths.originalsCache, byteLimit: Self.originalsCacheBytes)
        let partials = paths.originalsCache.appending(path: "partial/\(originals?.library ?? "none")", directoryHint: .isDirectory)
        // kitty's image is its RGB in base64, a few milliseconds: only slower renderers are made ahead.
        let loupes = LoupeLoader(
            client: client, partials: partials, disk: disk, originals: originals, render: graphics.renderer, rendersAhead: graphics.mode != .kitty
        )
        resources.loupes = loupes
        return OpenedLibrary(session: session, name: connection.name, previews: previews, loupes: loupes, confirmation: confirmation)
    }

    /// The config (`--config`, else the default file) and the library it and the environment choose
    /// (`--api-url` first): for the browser and every scripting verb alike. Throws a usage error.
    nonisolated static func library(config option: String?, apiURL: String?, paths: Paths, environment: [String: String]) throws -> (Config, LibrarySource) {
        let url = option.map { URL(fileURLWithPath: $0) } ?? paths.configFile
        let config = try Config.load(from: url, mustExist: option != nil)
        let source = try LibrarySource.resolve(config, apiURL: apiURL.flatMap(URL.init(string:)), environment: environment)
        // A library named on the command line is never swapped for the demo one for want of a key.
        if let apiURL, source.isDemo { throw NoKeyForAPI(url: apiURL) }
        return (config, source)
    }

    /// `--api-url` with no key from any source.
    struct NoKeyForAPI: Error, CustomStringConvertible {
        let url: String
        var description: String {
            "--api-url \(TerminalText.sanitized(url)) needs an API key: set PHOTOPICK_API_KEY, or api_key_file in the config (without --api-url the demo library opens)"
        }
    }

    /// The originals the loupe keeps on disk: about fifty 24 MP photos.
    static let originalsCacheBytes = 1 << 30

    /// The graphics mode: `--graphics`, else PHOTOPICK_GRAPHICS, else the config, else auto.
    nonisolated static func graphicsMode(option: String?, environment: [String: String], config: Config) -> Result<GraphicsMode, UsageLine> {
        if let option, let mode = GraphicsMode(rawValue: option) { return .success(mode) }
        if let value = environment["PHOTOPICK_GRAPHICS"], !value.isEmpty {
            guard let mode = GraphicsMode(rawValue: value) else {
                let shown = TerminalText.sanitized(value)
                return .failure(UsageLine(description: "PHOTOPICK_GRAPHICS=\(shown) is not a graphics mode; use one of \(GraphicsMode.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
            return .success(mode)
        }
        return .success(config.graphics ?? .auto)
    }

    private func makeLogger() -> Logger {
        Self.makeLogger(paths: paths, level: options.logLevel, clock: clock)
    }

    /// The log in the state folder, for every logger of the process: a line on stderr would land in the
    /// middle of the screen (or of a script's output).
    static func makeLogger(paths: Paths, level name: String?, clock: Timekeeper) -> Logger {
        let directory = paths.stateDirectory
        let level: Logger.Level = switch name.flatMap(LogLevelName.init) {
        case .error?: .error
        case .warning?: .warning
        case .debug?: .debug
        case .info?, nil: .info
        }
        // Every logger in the process, the embedded server's and the libraries' included, writes to the
        // file or nowhere: a line on stderr would land in the middle of the screen.
        let sink = FileLogHandler.sink(in: directory)
        LoggingSystem.bootstrap { label in
            guard let sink else { return SwiftLogNoOpLogHandler() }
            var handler = FileLogHandler(label: label, sink: sink, clock: clock)
            // Debug is for photopick's own lines; the server and HTTP client stay at info and above.
            handler.logLevel = label == "photopick" ? level : max(level, .info)
            return handler
        }
        return Logger(label: "photopick")
    }

    /// The exit code and line for an error that ended the program.
    static func status(for error: any Error) -> ExitStatus {
        let message = BrowserSession.describe(error)
        switch error {
        case let error as APIError:
            switch error {
            case .response(let response) where response.status == 401 || response.status == 403: return ExitStatus(code: 3, message: message)
            case .transport, .timeout: return ExitStatus(code: 4, message: message)
            default: return ExitStatus(code: 1, message: message)
            }
        case let refused as AccessRefused: return ExitStatus(code: 3, message: refused.reason)
        case let error as ServerError: return ExitStatus(code: error.isUsageError ? 2 : 1, message: "\(error)")
        default: return ExitStatus(code: 1, message: message)
        }
    }
}

/// A usage error's one line.
struct UsageLine: Error, CustomStringConvertible {
    let description: String
}

/// The key works but cannot list photos.
struct AccessRefused: Error {
    let reason: String
}

/// What must be closed after the terminal is restored: the previews, the client, then the demo server.
@MainActor
final class Resources {
    var client: APIClient?
    var server: PhotoPickServer?
    var previews: PreviewLoader?
    var loupes: LoupeLoader?

    func close() async {
        await previews?.stop()
        await loupes?.stop()
        try? await client?.shutdown()
        await server?.stop()
    }
}
