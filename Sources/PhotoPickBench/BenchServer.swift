import Foundation
import NIOConcurrencyHelpers
import PhotoPickKit

/// The embedded server in a process of its own, so the memory measured for a client is the client's
/// alone; it counts the requests it serves, and adds photos when asked.
struct BenchServer {
    let baseURL: URL
    let key: APIKey
    private let process: ChildProcess
    private let dataDirectory: URL
    private let lines: Lines?

    /// What the server printed since it was ready: requests served, and the photos added so far.
    private final class Lines: Sendable {
        let requests = NIOLockedValueBox(0)
        /// Of them, pages of the listing (`GET /photos`).
        let pages = NIOLockedValueBox(0)
        /// When each page was served, on the bench's clock.
        let pageTimes = NIOLockedValueBox<[Duration]>([])
        let added = NIOLockedValueBox(0)
    }

    /// Starts `photopick-bench _server` on `data` (a new folder by default, removed at the end) and
    /// waits until it answers. `rateLimit`: requests per `window` seconds; lifted when nil.
    static func start(photos: Int, megapixels: Double, rateLimit: Int? = nil, window: Int = 60, data: URL? = nil) throws -> BenchServer {
        let folder = data ?? FileManager.default.temporaryDirectory.appending(path: "photopick-bench-\(UUID().uuidString)")
        var arguments = ["_server", "--photos", String(photos), "--megapixels", String(megapixels), "--data", folder.path]
        if let rateLimit { arguments += ["--rate-limit", String(rateLimit), "--window", String(window), "--log-requests"] }
        let process = try ChildProcess.spawn(ChildProcess.ownExecutable, arguments, captureOutput: true, captureInput: rateLimit != nil)
        guard let line = process.readLine(), line.hasPrefix("READY ") else {
            process.terminate()
            throw BenchError("the benchmark server did not start")
        }
        let parts = line.split(separator: " ")
        var lines: Lines?
        if rateLimit != nil {
            let counted = Lines()
            lines = counted
            // The server's lines are read as they come, so its output never fills the pipe.
            Thread.detachNewThread {
                while let line = process.readLine() {
                    if line.hasPrefix("REQ ") {
                        counted.requests.withLockedValue { $0 += 1 }
                        if line == "REQ GET /api/v1/photos" {
                            counted.pages.withLockedValue { $0 += 1 }
                            counted.pageTimes.withLockedValue { $0.append(benchClock.elapsed()) }
                        }
                    } else if line.hasPrefix("ADDED "), let count = Int(line.dropFirst(6)) {
                        counted.added.withLockedValue { $0 += count }
                    }
                }
            }
        }
        return BenchServer(baseURL: URL(string: String(parts[1]))!, key: APIKey(String(parts[2])), process: process,
                           dataDirectory: folder, lines: lines)
    }

    /// Requests served so far (0 unless started with a rate limit).
    var requests: Int { lines?.requests.withLockedValue { $0 } ?? 0 }
    /// Of them, pages of the listing.
    var pages: Int { lines?.pages.withLockedValue { $0 } ?? 0 }

    /// The pace of the pages served after `since`, a minute: from the median gap between them, so
    /// neither a window's edges (a page every 2 s is 30 or 31 in a minute) nor the first page of a
    /// check, which goes at once, count as pace.
    func pagesPerMinute(after since: Duration) -> Double {
        let times = lines?.pageTimes.withLockedValue { $0.filter { $0 > since } } ?? []
        guard times.count > 2 else { return .nan }
        let gaps = zip(times.dropFirst(), times).map { ($0 - $1).inSeconds }.sorted()
        let median = gaps[gaps.count / 2]
        return median > 0 ? 60 / median : .nan
    }

    /// Adds `count` photos and waits until they are in the library.
    func addPhotos(_ count: Int) throws {
        guard let input = process.input, let lines else { throw BenchError("the server was started without its input") }
        let before = lines.added.withLockedValue { $0 }
        input.write(Data("ADD \(count)\n".utf8))
        let clock = benchClock
        let start = clock.elapsed()
        while lines.added.withLockedValue({ $0 }) < before + count {
            guard clock.elapsed() - start < .seconds(30) else { throw BenchError("the server did not add \(count) photos") }
            usleep(1000)
        }
    }

    /// Stops the server; its folder stays when `keepData` (for a restart with another limit).
    func stop(keepData: Bool = false) {
        try? process.input?.close()
        process.terminate()
        if !keepData { try? FileManager.default.removeItem(at: dataDirectory) }
    }

    /// A client for the server, with the key in memory only.
    func client(concurrency: Int = 8) -> APIClient {
        benchClient(baseURL, apiKey: .fixed(key), concurrency: concurrency)
    }

    /// For children, which read the key from the environment rather than from argv.
    var environment: [String: String] { ["PHOTOPICK_API_KEY": key.secret] }
}
