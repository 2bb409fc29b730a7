import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The embedded PhotoPick-compatible server: the demo library and the server integration tests talk to.
///
/// ```swift
/// let server = try await PhotoPickServer.start(.init(port: 0, photoCount: 500, seed: 7))
/// defer { Task { await server.stop() } }
/// ```
public final class PhotoPickServer: Sendable {
    /// `http://host:port/api/v1`.
    public let baseURL: URL
    /// The port the API is bound to.
    public let port: Int
    /// The port of the separate files origin, when there is one.
    public let filesPort: Int?
    /// `http://host:filesPort`, the separate files origin, when there is one.
    public var filesBaseURL: URL? {
        guard let filesPort, var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else { return nil }
        components.port = filesPort
        components.percentEncodedPath = ""
        return components.url
    }
    /// The keys the server accepts, in the order they were given.
    public let keys: [KeySpec]
    /// How many photos the library held when it was opened.
    public let photoCount: Int
    /// The seed the library was made from.
    public let seed: UInt64
    /// Whether this start made a new library rather than opening a stored one.
    public let createdLibrary: Bool
    /// What the files origin saw.
    public let filesOrigin: FilesOriginLedger
    /// How many images this run has encoded; the server never encodes the same one twice.
    public var imageEncodeCount: Int {
        get async { await images.encodeCount }
    }

    private let images: ImageStore
    private let library: LibraryStore
    /// Where the library lives: `dataDirectory`, or a temporary directory removed on stop.
    public let dataDirectory: URL

    private let serviceGroup: ServiceGroup
    private let running: Task<Void, any Error>
    /// Whether `dataDirectory` is a temporary one, removed on stop.
    private let removesDataOnStop: Bool

    /// A full-scope key (the first one given, or the one kept in the library).
    public var demoKey: String { keys.first { $0.scopes == Set(Scope.allCases) }?.key ?? keys[0].key }

    init(
        baseURL: URL, port: Int, filesPort: Int?, keys: [KeySpec], facts: LibraryStore.Facts, filesOrigin: FilesOriginLedger,
        images: ImageStore, library: LibraryStore, serviceGroup: ServiceGroup, running: Task<Void, any Error>, dataDirectory: URL,
        removesDataOnStop: Bool
    ) {
        self.baseURL = baseURL
        self.port = port
        self.filesPort = filesPort
        self.keys = keys
        self.photoCount = facts.photoCount
        self.seed = facts.seed
        self.createdLibrary = facts.wasCreated
        self.filesOrigin = filesOrigin
        self.images = images
        self.library = library
        self.serviceGroup = serviceGroup
        self.running = running
        self.dataDirectory = dataDirectory
        self.removesDataOnStop = removesDataOnStop
    }

    /// Opens (or makes) the library, binds the ports and returns once the server answers.
    public static func start(_ configuration: ServerConfiguration) async throws -> PhotoPickServer {
        try configuration.validate()
        if let directory = configuration.dataDirectory {
            return try await start(configuration, in: directory, removesDataOnStop: false)
        }
        let temporary = FileManager.default.temporaryDirectory.appending(path: "photopick-server-\(UUID().uuidString)")
        do {
            return try await start(configuration, in: temporary, removesDataOnStop: true)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    private static func start(
        _ configuration: ServerConfiguration, in directory: URL, removesDataOnStop: Bool
    ) async throws -> PhotoPickServer {
        try makeDirectory(directory)
        let library: LibraryStore
        do {
            library = try LibraryStore(directory: directory, configuration: configuration)
        } catch {
            throw ServerError.library("cannot open the library in \(directory.path): \(error); move it aside or choose another --data")
        }
        let keys = configuration.keys.isEmpty ? [KeySpec(key: library.facts.defaultKey)] : configuration.keys
        let keyRing = KeyRing(keys.enumerated().map { index, spec in
            APIKeyRecord(id: index + 1, name: configuration.keys.isEmpty ? "Demo key" : "Key \(index + 1)", spec: spec)
        })
        let clock = ServerClock(configuration.clock)
        let retryAfter = RetryAfter(asDate: configuration.retryAfterAsDate, clock: clock)
        let environment = ServerEnvironment(
            library: library,
            images: try ImageStore(
                directory: directory.appending(path: "images"), library: library,
                shared: configuration.sharesEncodedImages ? SharedEncodings.process : nil, damaged: configuration.damagedOriginals
            ),
            keys: keyRing,
            rateLimiter: RateLimiter(limit: configuration.rateLimit, window: configuration.rateLimitWindow),
            cursors: CursorSigner(secret: Array(SHA256.hash(data: Data("cursors".utf8) + library.facts.signingSecret))),
            fileURLs: FileURLSigner(secret: library.facts.signingSecret, lifetime: configuration.signedURLLifetime),
            filesOrigin: FilesOriginLedger(),
            retryAfter: retryAfter,
            clock: clock
        )
        let faults = FaultInjector(rate: configuration.faultRate, kinds: configuration.faults, seed: configuration.seed)
        return try await launch(configuration, environment, faults, dataDirectory: directory, removesDataOnStop: removesDataOnStop)
    }

    /// Adds a photo with the metadata and pixels of photo `id`, as an upload through the web app would
    /// (the API has no upload); for tests of clients that must notice new photos. Returns the new id,
    /// nil when `id` does not exist.
    public func addPhoto(copying id: Int) async throws -> Int? {
        try await library.addPhoto(copying: Int64(id)).map(Int.init)
    }

    /// Stops accepting connections, finishes what is in flight, checkpoints and closes the library,
    /// and removes it if it was temporary.
    public func stop() async {
        await serviceGroup.triggerGracefulShutdown()
        _ = try? await running.value
        // Fold the write-ahead log into library.sqlite, so that file alone holds the library. Closing
        // is not enough: GRDB closes its read-only readers last, and they cannot checkpoint.
        _ = try? await library.database.writeWithoutTransaction { try $0.checkpoint(.truncate) }
        try? library.database.close()
        if removesDataOnStop { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// Waits until the server stops, for `photopick serve`.
    public func waitUntilStopped() async throws {
        try await running.value
    }

    /// `mkdir -p`, with the system's reason when it fails (Foundation's error drops the errno).
    private static func makeDirectory(_ directory: URL) throws(ServerError) {
        var path = ""
        for component in directory.standardizedFileURL.path.split(separator: "/") {
            path += "/" + component
            if mkdir(path, 0o755) != 0, errno != EEXIST {
                let reason = String(cString: strerror(errno))
                throw .library("cannot create the data directory \(directory.path) (\(path): \(reason)); choose a writable one with --data")
            }
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw .library("the data directory \(directory.path) is not a directory; choose another with --data")
        }
    }
}
