import Logging
import PhotoPickKit
import PhotoPickServer

extension APIClient {
    /// A client for a test server whose waits run on `clock`, the one the server was given.
    public static func forTesting(
        _ server: PhotoPickServer, clock: TestClock, retryPolicy: RetryPolicy = .fast, log: LineLog = LineLog(),
        readTimeout: Duration = .seconds(30)
    ) -> APIClient {
        APIClient(configuration: .init(
            baseURL: server.baseURL, apiKey: .fixed(APIKey(server.demoKey)), clock: Timekeeper(clock), timeouts: .init(read: readTimeout),
            retryPolicy: retryPolicy, logger: Logger(label: "test") { _ in CapturingLogHandler(log: log) }
        ))
    }
}

extension RetryPolicy {
    /// Five tries with no backoff, for a client on a `TestClock` that nothing advances: a retry
    /// goes again at once instead of waiting for the clock.
    public static let immediate = RetryPolicy(maximumAttempts: 5, baseDelay: .zero, maximumDelay: .zero, deadline: .seconds(30))
}
