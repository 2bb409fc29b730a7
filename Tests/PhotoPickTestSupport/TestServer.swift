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

    /// A fresh directory's URL (not made) inside this run's folder, `photopick-tests-PID` in the
    /// temporary directory. The folder goes when the test process exits, and folders of runs that no
    /// longer live (killed, or crashed) go when the next run asks for its first directory, so a test
    /// that leaves its directory behind leaves it for one run only.
    public static func temporaryDirectory() -> URL {
        TestRunFolder.url.appending(path: UUID().uuidString)
    }
}

private enum TestRunFolder {
    static let prefix = "photopick-tests-"

    /// Made once a run: older runs' folders swept, this one's made and set to go at exit.
    static let url: URL = {
        let files = FileManager.default
        let parent = files.temporaryDirectory
        for name in (try? files.contentsOfDirectory(atPath: parent.path)) ?? [] where name.hasPrefix(prefix) {
            // kill(pid, 0) fails with ESRCH only when no such process lives.
            if let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH {
                try? files.removeItem(at: parent.appending(path: name))
            }
        }
        let folder = parent.appending(path: "\(prefix)\(getpid())")
        try? files.createDirectory(at: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: TestRunFolder.url) }
        return folder
    }()
}
