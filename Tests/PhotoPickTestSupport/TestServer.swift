import Foundation
import PhotoPickServer

/// Starts real servers on 127.0.0.1, port 0, for integration tests.
public enum TestServer {
    /// A fresh server with a small, fast demo library (originals of 0.3 MP). Its injected 503s and 429s
    /// ask for no wait (`Retry-After: 0`), so tests of many faults do not sit out a second for each;
    /// the tests of honouring `Retry-After` set `faultRetryAfter` themselves. It shares encoded images
    /// with the suite's other servers: a photo is rendered once a run, not once a test.
    public static func start(
        isolation: isolated (any Actor)? = #isolation,
        photos: Int = 200, seed: UInt64 = 7, _ configure: (inout ServerConfiguration) throws -> Void = { _ in }
    ) async throws -> PhotoPickServer {
        var configuration = ServerConfiguration(
            port: 0, photoCount: photos, seed: seed, rateLimit: 100_000, faultRetryAfter: 0, originalMegapixels: 0.3
        )
        configuration.sharesEncodedImages = true
        try configure(&configuration)
        return try await PhotoPickServer.start(configuration)
    }

    /// Runs `body` against a fresh server and stops it afterwards, also when `body` throws.
    @discardableResult
    public static func with<Result>(
        isolation: isolated (any Actor)? = #isolation,
        photos: Int = 200, seed: UInt64 = 7, _ configure: (inout ServerConfiguration) throws -> Void = { _ in },
        _ body: (PhotoPickServer, APICaller) async throws -> Result
    ) async throws -> Result {
        let server = try await start(photos: photos, seed: seed, configure)
        do {
            let result = try await body(server, APICaller(server: server))
            await server.stop()
            return result
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A directory removed when the test process ends is not guaranteed; tests remove it themselves.
    public static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appending(path: "photopick-test-\(UUID().uuidString)")
    }
}
