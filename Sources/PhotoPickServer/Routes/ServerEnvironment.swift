import Hummingbird
import NIOConcurrencyHelpers

/// What every route handler shares.
struct ServerEnvironment: Sendable {
    let library: LibraryStore
    let images: ImageStore
    let keys: KeyRing
    let rateLimiter: RateLimiter
    let cursors: CursorSigner
    let fileURLs: FileURLSigner
    let filesOrigin: FilesOriginLedger
    let retryAfter: RetryAfter
    let clock: ServerClock

    /// Parses a path id; anything but a positive integer is a 404, as the contract says.
    static func pathID(_ context: ServerContext, _ what: String) throws -> Int64 {
        guard let text = context.parameters.get("id"), let id = Int64(text), id > 0 else {
            throw APIFailure.noSuch(what)
        }
        return id
    }
}

/// What the files origin saw, so tests can assert that clients never send it the API key.
public final class FilesOriginLedger: Sendable {
    private let counts = NIOLockedValueBox((requests: 0, withAuthorization: 0))
    let port = NIOLockedValueBox<Int?>(nil)

    /// File requests served so far.
    public var requestCount: Int { counts.withLockedValue { $0.requests } }
    /// File requests that carried an `Authorization` header.
    public var authorizationHeaderCount: Int { counts.withLockedValue { $0.withAuthorization } }

    func record(hasAuthorization: Bool) {
        counts.withLockedValue {
            $0.requests += 1
            if hasAuthorization { $0.withAuthorization += 1 }
        }
    }
}
