import Foundation
import Logging

extension APIClient {
    /// Everything an `APIClient` needs; only the base URL and key have no default.
    public struct Configuration: Sendable {
        /// Such as `https://api.photopick.cz/api/v1`.
        public var baseURL: URL
        /// Asked for the key before every request.
        public var apiKey: APIKeyProvider
        /// Connect and read timeouts.
        public var timeouts: Timeouts
        /// How failed calls are retried.
        public var retryPolicy: RetryPolicy
        /// `photopick/<version>` by default.
        public var userAgent: String
        /// Receives one line per request; the key and signed query parameters are redacted.
        public var logger: Logger
        /// How many connections to one host may be open at once.
        public var maximumConnectionsPerHost: Int
        /// The share of each rate-limit window the listing and prefetch lanes never spend, so the user's
        /// own requests always find budget: 15% (45 of 300) is a minute of brisk tagging and previews,
        /// and leaves a 100,000-photo listing within 1.1× of the fastest the budget allows.
        public var reservedShare: Double
        /// What retries, the pacer, deadlines and signed links wait on and date by: the one the app's entry
        /// point gives everything (`Timekeeper.continuous`), or a test's clock it advances.
        public var clock: Timekeeper

        /// A configuration with sensible defaults for everything but the URL, the key and the clock.
        public init(
            baseURL: URL, apiKey: APIKeyProvider, clock: Timekeeper, timeouts: Timeouts = Timeouts(), retryPolicy: RetryPolicy = RetryPolicy(),
            userAgent: String = "photopick/\(PhotoPickVersion.current)", logger: Logger = Logger(label: "photopick.api"),
            maximumConnectionsPerHost: Int = 8, reservedShare: Double = 0.15
        ) {
            self.baseURL = baseURL
            self.apiKey = apiKey
            self.timeouts = timeouts
            self.retryPolicy = retryPolicy
            self.userAgent = userAgent
            self.logger = logger
            self.maximumConnectionsPerHost = maximumConnectionsPerHost
            self.reservedShare = reservedShare
            self.clock = clock
        }
    }

    /// How long to wait for a connection, and for the next bytes of an answer.
    public struct Timeouts: Sendable, Hashable {
        /// The longest wait for a connection to open.
        public var connect: Duration
        /// The longest silence while reading an answer; a stalled download fails after this, then resumes.
        public var read: Duration

        /// Timeouts of 10 seconds to connect and 30 seconds of read silence unless given.
        public init(connect: Duration = .seconds(10), read: Duration = .seconds(30)) {
            self.connect = connect
            self.read = read
        }
    }
}

/// This library's version, as sent in `User-Agent`.
public enum PhotoPickVersion {
    /// Such as `0.1.0`.
    public static let current = "0.1.0"
}
