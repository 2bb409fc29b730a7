import Foundation
import Logging
import PhotoBrowser
import PhotoPickConfig
import PhotoPickKit
import PhotoPickServer

/// The client for a library, the embedded demo server's or the API's, and the name the state database
/// files its edits, downloads and catalogue under: one for the browser and every scripting verb, so
/// each picks up where the other left off.
@MainActor
struct LibraryConnection {
    let client: APIClient
    let library: String
    var name: String?
    var account: Me?
    /// Whether `library` is the one last confirmed at this address, taken without asking the server:
    /// `confirm` says whether it still is.
    var isRemembered = false
    /// The libraries known at each address, held open from the lookup to the confirmation so the session
    /// shares its state database rather than opening it again.
    var known: KnownLibraries?

    /// Starts the demo server, or checks the key against `/me`; throws what should end the program.
    /// With `remembering`, an API library confirmed before is opened at once without a request
    /// (`isRemembered`; the caller then calls `confirm`), and a library checked now is remembered.
    static func open(
        _ source: LibrarySource, paths: Paths, logger: Logger, clock: Timekeeper, resources: Resources, remembering: Bool = false
    ) async throws -> LibraryConnection {
        var apiLogger = logger
        apiLogger[metadataKey: "component"] = "api"
        switch source {
        case .demo:
            let directory = paths.demoLibrary
            let server = try await PhotoPickServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
            resources.server = server
            let client = APIClient(configuration: .init(baseURL: server.baseURL, apiKey: .fixed(APIKey(server.demoKey)), clock: clock, logger: apiLogger))
            resources.client = client
            logger.info("demo library: \(server.photoCount) photos in \(directory.path), served at \(server.baseURL.absoluteString)")
            return LibraryConnection(client: client, library: "demo:" + directory.path)
        case .api(let url, let key):
            let client = APIClient(configuration: .init(baseURL: url, apiKey: key, clock: clock, logger: apiLogger))
            resources.client = client
            let known = remembering ? try? KnownLibraries(stateDirectory: paths.stateDirectory) : nil
            if let remembered = try? known?.library(at: url.absoluteString) {
                logger.info("opening \(remembered.library), last confirmed here, before the server answers")
                return LibraryConnection(client: client, library: remembered.library, name: remembered.name, isRemembered: true, known: known)
            }
            var connection = try await checked(client, url: url, logger: logger)
            if let known { connection.remember(in: known, at: url, logger: logger) }
            connection.known = known
            return connection
        }
    }

    /// Asks `/me` (and the account's name) for the library the key opens; throws what should end the program.
    private static func checked(_ client: APIClient, url: URL, logger: Logger) async throws -> LibraryConnection {
        let me = try await client.send(API.me())
        if let reason = AccountStatus(me).disabledReason(.browsing) { throw AccessRefused(reason: reason) }
        // The account's name for the header; the key's name stands in if it cannot be read.
        let name = try? await client.send(API.customer()).name
        logger.info("signed in as key \(me.name) of customer \(me.customerId)")
        return LibraryConnection(client: client, library: library(url, me), name: name, account: me)
    }

    /// The name an API library is filed under: the address and the customer, so two accounts never share one.
    static func library(_ url: URL, _ me: Me) -> String {
        "\(url.absoluteString)#customer-\(me.customerId)"
    }

    private func remember(in known: KnownLibraries, at url: URL, logger: Logger) {
        do {
            try known.remember(.init(library: library, name: name), at: url.absoluteString)
        } catch {
            // The next start waits for the server instead; nothing else is lost.
            logger.warning("the library opened is not remembered: \(error)")
        }
    }

    /// What the server says of a remembered library.
    enum Confirmation {
        /// The key is the remembered account's: `me` is its `/me`, `name` the account's name.
        case same(Me, name: String?)
        /// The key is another account's, whose library this is; it is remembered in place of the other.
        case other(LibraryConnection)
    }

    /// Asks the server whose the key is, for a remembered library; throws what should end the program
    /// (a refused key, one without `photos:read`, no network).
    func confirm(paths: Paths, logger: Logger) async throws -> Confirmation {
        let url = client.baseURL
        let checked = try await Self.checked(client, url: url, logger: logger)
        if let known = known ?? (try? KnownLibraries(stateDirectory: paths.stateDirectory)) { checked.remember(in: known, at: url, logger: logger) }
        guard checked.library == library, let me = checked.account else {
            logger.warning("the key belongs to \(checked.library), not \(library) opened last time")
            return .other(checked)
        }
        return .same(me, name: checked.name)
    }
}

extension BrowserSession.Configuration {
    /// The session's settings from the config and the command's options, the same for every command.
    @MainActor
    static func photopick(
        library: String, config: Config, paths: Paths, downloadDirectory: String?, concurrency: Int?, logger: Logger, clock: Timekeeper,
        account: Me?, refresh: RefreshPolicy? = nil
    ) -> Self {
        var sessionLogger = logger
        sessionLogger[metadataKey: "component"] = "browser"
        var configuration = BrowserSession.Configuration(
            library: library, stateDirectory: paths.stateDirectory,
            downloadDirectory: downloadDirectory.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
                ?? config.downloadDirectory ?? paths.downloads,
            downloadVariant: config.variant ?? .original,
            concurrency: concurrency ?? config.concurrency ?? DownloadQueue.defaultConcurrency,
            logger: sessionLogger, clock: clock, account: account,
            refresh: refresh ?? config.refresh ?? .hourly, tagFreshness: .seconds(config.tagFreshnessSeconds ?? 60)
        )
        configuration.markNames = config.markNames
        configuration.burstGap = config.burstGap ?? 2
        configuration.savedSearches = config.savedSearches
        configuration.purgeLimit = config.purgeLimit ?? 500
        configuration.keepOriginals = config.keepOriginals
        configuration.pairDownloads = config.pairs ?? .both
        return configuration
    }
}
