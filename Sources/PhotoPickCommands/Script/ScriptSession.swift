import ArgumentParser
import Foundation
import Logging
import PhotoBrowser
import PhotoPickConfig
import PhotoPickKit

/// The options every scripting verb shares with the browser.
struct LibraryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Config file (default: $XDG_CONFIG_HOME/photopick/config.toml).", valueName: "file"))
    var config: String?

    @Option(name: .customLong("api-url"), help: ArgumentHelp("API base URL (default: https://api.photopick.cz/api/v1).", valueName: "url"))
    var apiURL: String?

    @Option(name: .customLong("log-level"), help: ArgumentHelp("What the log keeps: error, warning, info or debug.", valueName: "level"))
    var logLevel: String?

    func validate() throws {
        if let apiURL, Config.httpURL(apiURL) == nil {
            throw ValidationError("--api-url \(apiURL) is not an http(s) URL; write it like https://api.photopick.cz/api/v1.")
        }
        if let logLevel, LogLevelName(rawValue: logLevel) == nil {
            throw ValidationError("--log-level \(logLevel) is not a level; use error, warning, info or debug.")
        }
    }
}

/// How a verb ends: its exit code and a line for stderr.
struct ScriptExit: Error {
    var code: Int32
    var message: String?

    static func usage(_ message: String) -> ScriptExit { ScriptExit(code: 2, message: message) }
}

/// A library opened for a script: the browser's session with no terminal, on the same config, key,
/// catalogue, outbox and download queue, so a script and the browser each carry on the other's work.
@MainActor
final class ScriptSession {
    let session: BrowserSession
    let config: Config
    let logger: Logger
    private let resources: Resources
    private var tagsKnown = false
    private var tagsFailure: String?
    /// Tag edits the server refused, with why.
    private(set) var rejections: [String] = []
    /// Photo edits the server refused, with why.
    private(set) var editRejections: [(photoID: Int, reason: String)] = []
    /// How the last purge ended.
    private(set) var purgeReport: PurgeSummary?
    /// The last reason sending was put off (the network, the rate limit).
    private(set) var delay: String?

    private init(session: BrowserSession, config: Config, logger: Logger, resources: Resources) {
        self.session = session
        self.config = config
        self.logger = logger
        self.resources = resources
        session.onEvent = { [weak self] event, _ in self?.saw(event) }
    }

    /// Opens the library as the browser would, checking the catalogue against the server by `refresh`.
    private static func open(
        _ options: LibraryOptions, refresh: RefreshPolicy, downloadDirectory: String? = nil, concurrency: Int? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) async throws(ScriptExit) -> ScriptSession {
        let paths = Paths(environment: environment)
        let config: Config
        let source: LibrarySource
        do {
            (config, source) = try Launcher.library(config: options.config, apiURL: options.apiURL, paths: paths, environment: environment)
        } catch {
            throw .usage("\(error)")
        }
        // A verb's entry point: everything it opens waits on the real clock.
        let clock = Timekeeper.continuous
        let logger = Launcher.makeLogger(paths: paths, level: options.logLevel, clock: clock)
        let resources = Resources()
        do {
            let connection = try await LibraryConnection.open(source, paths: paths, logger: logger, clock: clock, resources: resources)
            let configuration = BrowserSession.Configuration.photopick(
                library: connection.library, config: config, paths: paths, downloadDirectory: downloadDirectory, concurrency: concurrency,
                logger: logger, clock: clock, account: connection.account, refresh: refresh
            )
            let session = try BrowserSession(client: connection.client, configuration: configuration)
            let script = ScriptSession(session: session, config: config, logger: logger, resources: resources)
            try session.start()
            return script
        } catch {
            await resources.close()
            let status = Launcher.status(for: error)
            throw ScriptExit(code: status.code, message: status.message)
        }
    }

    private func saw(_ event: BrowserInput) {
        switch event {
        case .report(.tags(.tagsLoaded)): tagsKnown = true
        case .report(.tags(.tagsFailed(let reason))):
            tagsKnown = true
            tagsFailure = reason
        case .report(.tags(.tagDeltasRejected(_, _, let reason))): rejections.append(reason)
        case .report(.tags(.tagSendingDelayed(let reason))), .report(.edits(.photoEditSendingDelayed(let reason))): delay = reason
        case .report(.edits(.photoEditsRejected(let photoID, _, let reason))): editRejections.append((photoID, reason))
        case .report(.purge(.purgeFinished(let report))): purgeReport = report
        default: break
        }
    }

    /// Waits until `condition` holds for the state, checking after every change.
    func wait(until condition: (BrowserState) -> Bool) async {
        var changes = session.changes.makeAsyncIterator()
        while !condition(session.state) {
            guard await changes.next() != nil else { return }
        }
    }

    /// Waits for the whole library: the catalogue read, the walk over the server finished if one was
    /// due, and the tags known. A walk that stops is the script's failure; what it read stays for next time.
    func library() async throws(ScriptExit) {
        await wait { state in
            guard state.loading.isCatalogueRead, self.tagsKnown else { return false }
            switch state.loading.phase {
            case .complete, .failed, .cancelled: return true
            case .notStarted, .loading: return false
            }
        }
        if case .failed(let reason) = session.state.loading.phase {
            throw ScriptExit(code: 1, message: "the library could not be listed: \(reason); run again to resume where it stopped")
        }
        if let tagsFailure {
            throw ScriptExit(code: 1, message: "the tags could not be read: \(tagsFailure)")
        }
    }

    /// Lists the photos `query` matches, as the browser's filter would; a bad term is a usage error
    /// naming it and why.
    func filter(_ query: String) throws(ScriptExit) -> [Int] {
        session.send(.browsing(.filterTextChanged(query)))
        let filter = session.state.list.filter
        if let problem = (filter.query.problems + filter.unknownTags()).first {
            throw .usage("bad query term “\(TerminalText.sanitized(problem.term))”: \(problem.reason)")
        }
        // Every photo the query lets through: a RAW+JPEG pair's row is both files, its RAW first.
        let list = session.state.list, library = session.state.library
        return list.libraryIndices.flatMap { list.files(of: $0, in: library) }
    }

    /// Stops the session: unsent edits stay in the outbox, unfinished downloads in the queue.
    func close() async {
        await session.stop()
        await resources.close()
    }

    /// Opens the library, waits for it whole, runs `body` on it and closes the session on every path.
    static func withLibrary(
        _ options: LibraryOptions, refresh: RefreshPolicy, downloadDirectory: String? = nil, concurrency: Int? = nil,
        _ body: (ScriptSession) async throws(ScriptExit) -> Void
    ) async throws(ScriptExit) {
        let script = try await open(options, refresh: refresh, downloadDirectory: downloadDirectory, concurrency: concurrency)
        do throws(ScriptExit) {
            try await script.library()
            try await body(script)
            await script.close()
        } catch {
            await script.close()
            throw error
        }
    }
}

/// Runs a verb's body against a script session, closing it on every path, and turns how it ended into
/// the exit code and the one line on stderr.
@MainActor
func runScript(_ name: String, _ body: () async throws(ScriptExit) -> Void) async throws {
    do {
        try await body()
    } catch {
        if let message = error.message {
            FileHandle.standardError.write(Data("photopick \(name): \(TerminalText.sanitized(message))\n".utf8))
        }
        throw ExitCode(error.code)
    }
}
