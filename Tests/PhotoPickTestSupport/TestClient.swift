import Foundation
import Logging
import NIOConcurrencyHelpers
import PhotoPickKit
import PhotoPickServer

/// Lines a test server or client wrote, for counting requests and grepping for secrets.
public final class LineLog: Sendable {
    private let storage = NIOLockedValueBox<[String]>([])

    /// An empty log.
    public init() {}

    /// Every line so far, oldest first.
    public var lines: [String] { storage.withLockedValue { $0 } }
    /// Adds a line.
    public func append(_ line: String) { storage.withLockedValue { $0.append(line) } }

    /// Server request-log lines (`GET /api/v1/photos 200 3ms`) that start with `prefix`.
    public func requests(_ prefix: String) -> [String] { lines.filter { $0.hasPrefix(prefix) } }
}

/// A swift-log handler that appends every message, with its metadata, to a `LineLog`.
public struct CapturingLogHandler: LogHandler {
    let log: LineLog
    /// The handler's metadata, as swift-log requires.
    public var metadata: Logger.Metadata = [:]
    /// Everything is captured, down to trace.
    public var logLevel: Logger.Level = .trace

    /// A handler that writes into `log`.
    public init(log: LineLog) {
        self.log = log
    }

    /// One metadata value, as swift-log requires.
    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// Appends the level, message and metadata as one line.
    public func log(event: LogEvent) {
        log.append("\(event.level) \(event.message) \(event.metadata ?? [:])")
    }
}

extension APIClient {
    /// A client for a test server, with its key, a fast retry policy on the real clock (its waits are
    /// the network's), and a captured log.
    public static func forTesting(
        _ server: PhotoPickServer, key: String? = nil, retryPolicy: RetryPolicy = .fast, log: LineLog = LineLog(),
        readTimeout: Duration = .seconds(30)
    ) -> APIClient {
        APIClient(configuration: .init(
            baseURL: server.baseURL, apiKey: .fixed(APIKey(key ?? server.demoKey)), clock: .continuous, timeouts: .init(read: readTimeout),
            retryPolicy: retryPolicy, logger: Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        ))
    }
}

extension RetryPolicy {
    /// Five tries with short backoff, so tests of retries run quickly.
    public static let fast = RetryPolicy(maximumAttempts: 5, baseDelay: .milliseconds(20), maximumDelay: .milliseconds(200), deadline: .seconds(30))
}

/// A fresh directory for one test's downloads.
public func makeDownloadDirectory() -> URL {
    let url = TestServer.temporaryDirectory()
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The names in a directory, sorted.
public func listing(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
}

/// Waits until `condition` holds, polling; false if it still does not after `timeout`.
public func eventually(
    isolation: isolated (any Actor)? = #isolation, within timeout: Duration = .seconds(5), _ condition: () -> Bool
) async throws -> Bool {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(10))
    }
    return true
}
