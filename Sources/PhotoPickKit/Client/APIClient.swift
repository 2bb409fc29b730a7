import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1

/// A PhotoPick API client: typed requests, retries with backoff, one rate-limit pacer for every task,
/// and safe, resumable downloads.
///
/// ```swift
/// let client = APIClient(configuration: .init(baseURL: url, apiKey: .environment("PHOTOPICK_API_KEY"), clock: .continuous))
/// let me = try await client.send(API.me())
/// ```
public actor APIClient {
    /// Such as `https://api.photopick.cz/api/v1`.
    public nonisolated let baseURL: URL
    /// Where the key may go, and nowhere else.
    nonisolated let baseOrigin: Origin
    nonisolated let configuration: Configuration
    nonisolated let httpClient: HTTPClient
    nonisolated let pacer: RateLimitPacer
    /// The configuration's clock, which every wait of this client runs on.
    nonisolated let time: Timekeeper
    /// The clock this client waits on and dates by; what it loads for others (previews, originals) waits on it too.
    public nonisolated var clock: Timekeeper { time }
    /// Whether a `Sunset` header was logged already; it is logged once per client.
    private var hasWarnedOfSunset = false
    /// Renditions' signed links, reused until they expire.
    var signedLinks = SignedLinks()

    /// A client with its own connection pool; call `shutdown()` when done with it.
    public init(configuration: Configuration) {
        self.baseURL = configuration.baseURL
        self.baseOrigin = Origin(configuration.baseURL)
        self.configuration = configuration
        time = configuration.clock
        pacer = RateLimitPacer(reservedShare: configuration.reservedShare, time: time)
        var http = HTTPClient.Configuration()
        http.redirectConfiguration = .disallow
        http.timeout = .init(connect: .init(configuration.timeouts.connect), read: .init(configuration.timeouts.read))
        http.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: configuration.maximumConnectionsPerHost
        )
        // A refused connection should fail now, not be retried by the pool until the connect timeout.
        http.connectionPool.retryConnectionEstablishment = false
        http.decompression = .disabled
        self.httpClient = HTTPClient(eventLoopGroupProvider: .singleton, configuration: http)
    }

    /// Sends a request, retrying what is safe to retry, and returns its decoded answer.
    public nonisolated func send<Response>(_ request: Request<Response>) async throws(APIError) -> Response {
        try decode(try await perform(request), as: request)
    }

    /// A response decoded as `request` says; a failure names the request id.
    nonisolated func decode<Response>(_ response: RawResponse, as request: Request<Response>) throws(APIError) -> Response {
        do {
            return try request.decode(response)
        } catch let error as APIError {
            throw error
        } catch {
            throw .decoding(DecodingFailure(path: "(top level)", reason: "\(error)", requestID: response.requestID))
        }
    }

    /// The rate-limit state now and after every change, for a status bar.
    public nonisolated func rateLimitUpdates() async -> AsyncStream<RateLimitState> {
        await pacer.updates()
    }

    /// Closes every connection; the client cannot be used afterwards.
    public func shutdown() async throws {
        await pacer.finish()
        try await httpClient.shutdown()
    }

    deinit {
        // AsyncHTTPClient traps when a client is released unshut; a dropped APIClient closes its connections instead.
        _ = httpClient.shutdown()
    }

    func noteSunset(_ value: String, path: String) {
        guard !hasWarnedOfSunset else { return }
        hasWarnedOfSunset = true
        configuration.logger.warning("Sunset header on \(path): \(value.oneLine)")
    }
}
