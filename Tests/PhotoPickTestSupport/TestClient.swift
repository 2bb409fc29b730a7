import Foundation
import Logging
import NIOConcurrencyHelpers
import PhotoPickKit
import PhotoPickServer

/// Lines a test server or client wrote, for counting requests and grepping for secrets.
public final class LineLog: Sendable {
    private struct Storage {
        var lines: [String] = []
        var waiters: [(condition: @Sendable ([String]) -> Bool, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let storage = NIOLockedValueBox(Storage())

    /// An empty log.
    public init() {}

    /// Every line so far, oldest first.
    public var lines: [String] { storage.withLockedValue { $0.lines } }

    /// Adds a line, waking those whose condition it makes hold.
    public func append(_ line: String) {
        let due = storage.withLockedValue { storage in
            storage.lines.append(line)
            let lines = storage.lines
            let due = storage.waiters.filter { $0.condition(lines) }
            storage.waiters.removeAll { $0.condition(lines) }
            return due.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Returns once `condition` holds of the lines, looking again at each line added (never on a timer);
    /// a line that never comes is ended by the test's time limit.
    public func waitUntil(_ condition: @escaping @Sendable ([String]) -> Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = storage.withLockedValue { storage in
                if condition(storage.lines) { return true }
                storage.waiters.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

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

