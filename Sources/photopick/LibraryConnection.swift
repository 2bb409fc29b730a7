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

    /// Starts the demo server, or checks the key against `/me`; throws what should end the program.
    static func open(_ source: LibrarySource, paths: Paths, logger: Logger, resources: Resources) async throws -> LibraryConnection {
        var apiLogger = logger
        apiLogger[metadataKey: "component"] = "api"
        switch source {
        case .demo:
            let directory = paths.demoLibrary
            let server = try await PhotoPickServer.start(ServerConfiguration(port: 0, dataDirectory: directory))
            resources.server = server
            let client = APIClient(configuration: .init(baseURL: server.baseURL, apiKey: .fixed(APIKey(server.demoKey)), logger: apiLogger))
            resources.client = client
            logger.info("demo library: \(server.photoCount) photos in \(directory.path), served at \(server.baseURL.absoluteString)")
            return LibraryConnection(client: client, library: "demo:" + directory.path)
        case .api(let url, let key):
            let client = APIClient(configuration: .init(baseURL: url, apiKey: key, logger: apiLogger))
            resources.client = client
            let me = try await client.send(API.me())
            if let reason = AccountStatus(me).disabledReason(.browsing) { throw AccessRefused(reason: reason) }
            // The account's name for the header; the key's name stands in if it cannot be read.
            let name = try? await client.send(API.customer()).name
            logger.info("signed in as key \(me.name) of customer \(me.customerId)")
            return LibraryConnection(client: client, library: "\(url.absoluteString)#customer-\(me.customerId)", name: name, account: me)
        }
    }
}

extension BrowserSession.Configuration {
    /// The session's settings from the config and the command's options, the same for every command.
    @MainActor
    static func photopick(
        library: String, config: Config, paths: Paths, downloadDirectory: String?, concurrency: Int?, logger: Logger, account: Me?,
        refresh: RefreshPolicy? = nil
    ) -> Self {
        var sessionLogger = logger
        sessionLogger[metadataKey: "component"] = "browser"
        var configuration = BrowserSession.Configuration(
            library: library, stateDirectory: paths.stateDirectory,
            downloadDirectory: downloadDirectory.map { URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL }
                ?? config.downloadDirectory ?? paths.downloads,
            downloadVariant: config.variant ?? .original,
            concurrency: concurrency ?? config.concurrency ?? DownloadQueue.defaultConcurrency,
            logger: sessionLogger, account: account,
            refresh: refresh ?? config.refresh ?? .hourly, tagFreshness: .seconds(config.tagFreshnessSeconds ?? 60)
        )
        configuration.markNames = config.markNames
        configuration.burstGap = config.burstGap ?? 2
        configuration.savedSearches = config.savedSearches
        return configuration
    }
}
