import Foundation
import Logging
import NIOConcurrencyHelpers
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport

/// Lines a test server or client wrote, for counting requests and grepping for secrets.
final class LineLog: Sendable {
    private let storage = NIOLockedValueBox<[String]>([])

    var lines: [String] { storage.withLockedValue { $0 } }
    func append(_ line: String) { storage.withLockedValue { $0.append(line) } }

    /// Server request-log lines (`GET /api/v1/photos 200 3ms`) that start with `prefix`.
    func requests(_ prefix: String) -> [String] { lines.filter { $0.hasPrefix(prefix) } }
}

/// A swift-log handler that appends every message, with its metadata, to a `LineLog`.
struct CapturingLogHandler: LogHandler {
    let log: LineLog
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        log.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}

extension APIClient {
    /// A client for a test server, with its key, a fast retry policy, and a captured log.
    static func forTesting(
        _ server: PhotoPickServer, key: String? = nil, retryPolicy: RetryPolicy = .fast, log: LineLog = LineLog(),
        readTimeout: Duration = .seconds(30)
    ) -> APIClient {
        APIClient(configuration: .init(
            baseURL: server.baseURL, apiKey: .fixed(APIKey(key ?? server.demoKey)), timeouts: .init(read: readTimeout),
            retryPolicy: retryPolicy, logger: Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        ))
    }
}

extension RetryPolicy {
    /// Five tries with short backoff, so tests of retries run quickly.
    static let fast = RetryPolicy(maximumAttempts: 5, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200), deadline: .seconds(30))
}

@discardableResult
/// Runs `body` against a fresh server whose request log is captured; stops server and client afterwards.
func withKitServer<Result>(
    photos: Int = 200, seed: UInt64 = 7, _ configure: (inout ServerConfiguration) -> Void = { _ in },
    retryPolicy: RetryPolicy = .fast, clientLog: LineLog = LineLog(),
    _ body: (PhotoPickServer, APIClient, LineLog) async throws -> Result
) async throws -> Result {
    let serverLog = LineLog()
    return try await TestServer.with(photos: photos, seed: seed, { configuration in
        configuration.requestLog = { serverLog.append($0) }
        configure(&configuration)
    }) { server, _ in
        let client = APIClient.forTesting(server, retryPolicy: retryPolicy, log: clientLog)
        do {
            let result = try await body(server, client, serverLog)
            try? await client.shutdown()
            return result
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}

/// A fresh directory for one test's downloads.
func makeDownloadDirectory() -> URL {
    let url = TestServer.temporaryDirectory()
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The names in a directory, sorted.
func listing(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// Waits until `condition` holds, polling; false if it still does not after `timeout`.
func eventually(within timeout: Duration = .seconds(5), _ condition: () -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}
