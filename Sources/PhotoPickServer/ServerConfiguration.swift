import Foundation

/// Everything `PhotoPickServer.start` needs; the defaults are those of `photopick serve`.
public struct ServerConfiguration: Sendable {
    /// Interface to listen on.
    public var host: String
    /// Port for the API; 0 picks a free one.
    public var port: Int
    /// Where the library persists between runs; nil keeps it in a temporary directory removed on stop.
    public var dataDirectory: URL?
    /// How many photos a new demo library gets.
    public var photoCount: Int
    /// Seed of the demo library and of fault injection.
    public var seed: UInt64
    /// Keys to accept; empty means one full-scope key kept in the library.
    public var keys: [KeySpec]
    /// Requests per key per window.
    public var rateLimit: Int
    /// Length of the rate-limit window in seconds; tests shorten it so a window passes quickly.
    public var rateLimitWindow: Int
    /// A second port serving signed file URLs, acting as a separate storage origin.
    public var filesPort: Int?
    /// Fraction (0...1) of requests that get a fault.
    public var faultRate: Double
    /// The faults to draw from.
    public var faults: Set<FaultKind>
    /// How long a `slow` fault stalls.
    public var latency: Duration
    /// Send `Retry-After` as an HTTP-date instead of seconds.
    public var retryAfterAsDate: Bool
    /// The seconds an injected 503 or 429 asks the client to wait (`Retry-After`); 0 means at once.
    public var faultRetryAfter: Int
    /// Size of originals in a new demo library.
    public var originalMegapixels: Double
    /// How long a signed download URL stays valid.
    public var signedURLLifetime: Duration
    /// Receives one line per request (method, path, status, milliseconds); nil logs nothing.
    public var requestLog: (@Sendable (String) -> Void)?
    /// What rate-limit windows, signed-link expiry, `Retry-After` dates and the slow fault's stall read:
    /// the real clock, or a test's clock it advances (which starts at 2027-01-15 08:00:00 UTC).
    public var clock: any Clock<Duration>
    /// Whether encoded images are shared with the other servers of this process that share them: for
    /// tests, which start many servers of one demo library. Off by default: a lone server gains
    /// nothing and would hold every image it sent in memory.
    public var sharesEncodedImages = false
    /// Photos whose original is stored damaged, as a disk or an upload can leave one: its magic number,
    /// then seeded random bytes to its listed size, with a digest that matches. For testing what reads
    /// originals; the renditions stay whole.
    public var damagedOriginals: Set<Int64> = []

    /// A configuration with the defaults of `photopick serve` for whatever is not given.
    public init(
        host: String = "127.0.0.1",
        port: Int = 8787,
        dataDirectory: URL? = nil,
        photoCount: Int = 2000,
        seed: UInt64 = 1,
        keys: [KeySpec] = [],
        rateLimit: Int = 300,
        rateLimitWindow: Int = 60,
        filesPort: Int? = nil,
        faultRate: Double = 0,
        faults: Set<FaultKind> = Set(FaultKind.allCases),
        latency: Duration = .milliseconds(1500),
        retryAfterAsDate: Bool = false,
        faultRetryAfter: Int = 1,
        originalMegapixels: Double = 12,
        signedURLLifetime: Duration = .seconds(300),
        requestLog: (@Sendable (String) -> Void)? = nil,
        clock: any Clock<Duration> = ServerConfiguration.realClock
    ) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.photoCount = photoCount
        self.seed = seed
        self.keys = keys
        self.rateLimit = rateLimit
        self.rateLimitWindow = rateLimitWindow
        self.filesPort = filesPort
        self.faultRate = faultRate
        self.faults = faults
        self.latency = latency
        self.retryAfterAsDate = retryAfterAsDate
        self.faultRetryAfter = faultRetryAfter
        self.originalMegapixels = originalMegapixels
        self.signedURLLifetime = signedURLLifetime
        self.requestLog = requestLog
        self.clock = clock
    }

    func validate() throws(ServerError) {
        guard (0...65535).contains(port) else { throw .invalidOption("--port must be 0...65535, got \(port)") }
        if let filesPort, !(0...65535).contains(filesPort) {
            throw .invalidOption("--files-port must be 0...65535, got \(filesPort)")
        }
        guard (0...1_000_000).contains(photoCount) else {
            throw .invalidOption("--photos must be 0...1000000, got \(photoCount)")
        }
        guard rateLimit >= 1 else { throw .invalidOption("--rate-limit must be at least 1, got \(rateLimit)") }
        guard (1...3600).contains(rateLimitWindow) else {
            throw .invalidOption("--rate-limit-window must be 1...3600 seconds, got \(rateLimitWindow)")
        }
        guard (0...3600).contains(faultRetryAfter) else {
            throw .invalidOption("the fault Retry-After must be 0...3600 seconds, got \(faultRetryAfter)")
        }
        guard (0...1).contains(faultRate) else { throw .invalidOption("--fault-rate must be 0...1, got \(faultRate)") }
        guard originalMegapixels >= 0.01, originalMegapixels <= 100 else {
            throw .invalidOption("--original-megapixels must be 0.01...100, got \(originalMegapixels)")
        }
    }
}

/// Why the server could not start: one line that names the problem and the fix.
public enum ServerError: Error, CustomStringConvertible, Sendable {
    case invalidOption(String)
    case invalidKey(String)
    case cannotBind(String)
    case library(String)

    /// Whether the options themselves are wrong, as opposed to the machine refusing them.
    public var isUsageError: Bool {
        switch self {
        case .invalidOption, .invalidKey: true
        case .cannotBind, .library: false
        }
    }

    /// The message: one line that names the problem and the fix.
    public var description: String {
        switch self {
        case .invalidOption(let text), .invalidKey(let text), .cannotBind(let text), .library(let text):
            return text
        }
    }
}
