import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews
import TerminalUI
import PhotoPickSettings

/// `_server`: the embedded server for a benchmark; prints `READY <base URL> <key>` and serves until
/// killed. With `--log-requests`, a line `REQ <method> <path>` per request; a line `ADD <n>` on its input adds `n`
/// photos (copies of photo 1, as an upload through the web app would) and answers `ADDED <n>`.
struct ServerHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_server", shouldDisplay: false)

    @Option var photos: Int
    @Option var megapixels: Double
    @Option var data: String
    @Option(help: "Requests per window; by default the budget is lifted, as transfer benches measure transfer, not the limit.")
    var rateLimit = 100_000_000
    @Option var window = 60
    @Flag var logRequests = false

    func run() async throws {
        let output = FileHandle.standardOutput
        var configuration = ServerConfiguration(
            port: 0, dataDirectory: URL(fileURLWithPath: data), photoCount: photos, rateLimit: rateLimit,
            rateLimitWindow: window, originalMegapixels: megapixels
        )
        if logRequests {
            // "GET /api/v1/photos 200 5ms": the method and path are enough to tell a page of the listing.
            configuration.requestLog = { line in output.write(Data("REQ \(line.split(separator: " ").prefix(2).joined(separator: " "))\n".utf8)) }
        }
        let server = try await PhotoPickServer.start(configuration)
        output.write(Data("READY \(server.baseURL.absoluteString) \(server.demoKey)\n".utf8))
        // Lines of input as they come, read on a thread of their own (reading blocks).
        let (lines, feed) = AsyncStream.makeStream(of: String.self)
        Thread.detachNewThread {
            while let line = readLine() { feed.yield(line) }
            feed.finish()
        }
        let commands = Task {
            for await line in lines {
                guard line.hasPrefix("ADD "), let count = Int(line.dropFirst(4)) else { continue }
                for _ in 0..<count { _ = try await server.addPhoto(copying: 1) }
                output.write(Data("ADDED \(count)\n".utf8))
            }
        }
        try await server.waitUntilStopped()
        commands.cancel()
    }
}

/// `_walk`: walks every photo with `PhotoStream`; the key comes from `PHOTOPICK_API_KEY`.
struct WalkHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_walk", shouldDisplay: false)

    @Option var baseURL: String
    @Option var expect: Int

    func run() async throws {
        let client = helperClient(baseURL)
        var count = 0
        for try await _ in PhotoStream(client: client) { count += 1 }
        try await client.shutdown()
        guard count == expect else { throw BenchError("walked \(count) photos, expected \(expect)") }
    }
}

/// `_download`: downloads the first photos with a bounded number in flight.
struct DownloadHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_download", shouldDisplay: false)

    @Option var baseURL: String
    @Option var count: Int
    @Option var concurrency: Int
    @Option var directory: String

    func run() async throws {
        let client = helperClient(baseURL, concurrency: concurrency)
        let photos = try await firstPhotos(count, client: client)
        try await download(photos, with: client, concurrency: concurrency, into: URL(fileURLWithPath: directory))
        try await client.shutdown()
    }
}

/// A client for a helper process, which reads the key from the environment rather than from argv.
func helperClient(_ baseURL: String, concurrency: Int = 8) -> APIClient {
    benchClient(URL(string: baseURL)!, apiKey: .environment("PHOTOPICK_API_KEY"), concurrency: concurrency)
}

/// A client that logs only errors, with `concurrency` connections.
func benchClient(_ baseURL: URL, apiKey: APIKeyProvider, concurrency: Int) -> APIClient {
    var configuration = APIClient.Configuration(baseURL: baseURL, apiKey: apiKey, clock: benchClock)
    configuration.logger.logLevel = .error
    configuration.maximumConnectionsPerHost = concurrency
    return APIClient(configuration: configuration)
}

func firstPhotos(_ count: Int, client: APIClient) async throws -> [Photo] {
    var photos: [Photo] = []
    for try await photo in PhotoStream(client: client) {
        photos.append(photo)
        if photos.count == count { break }
    }
    return photos
}

/// Downloads every photo, `concurrency` at a time.
func download(_ photos: [Photo], with client: APIClient, concurrency: Int, into directory: URL) async throws {
    try await withThrowingTaskGroup(of: Void.self) { group in
        for (index, photo) in photos.enumerated() {
            if index >= concurrency { try await group.next() }
            group.addTask { _ = try await client.download(photo: photo, into: directory) }
        }
        try await group.waitForAll()
    }
}

/// Runs a hidden helper command of this executable in a process of its own and decodes the one JSON
/// line it prints.
func runHelper<Figures: Decodable>(_ arguments: [String], environment: [String: String]) throws -> Figures {
    let child = try ChildProcess.spawn(ChildProcess.ownExecutable, arguments, environment: environment, captureOutput: true)
    let line = child.readLine()
    guard child.wait().exitStatus == 0, let line else { throw BenchError("the \(arguments.first ?? "") helper failed") }
    return try JSONDecoder().decode(Figures.self, from: Data(line.utf8))
}

/// A helper's answer: its figures as one JSON line.
func printJSONLine(_ figures: some Encodable) throws {
    print(String(decoding: try JSONEncoder().encode(figures), as: UTF8.self))
}

/// A field of `/proc/self/status` given in kB, such as `VmRSS` or `VmHWM`.
func processStatusKilobytes(_ field: String) -> Int? {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Int($0) }
}

/// Runs `body` with the ncurses driver drawing headless into a scratch file, as a terminal would be sent.
@MainActor
func withHeadlessDriver<Result>(width: Int, height: Int, graphics: GraphicsMode = .symbols, _ body: (TerminalDriver) throws -> Result) throws -> Result {
    guard let output = tmpfile(), let input = fopen("/dev/null", "r") else { throw BenchError("cannot open a scratch terminal") }
    defer { fclose(output); fclose(input) }
    let driver = TerminalDriver(clock: benchClock)
    do {
        try driver.startHeadless(width: width, height: height, output: output, input: input, graphics: graphics)
    } catch {
        throw BenchError(error.description)
    }
    defer { driver.stop() }
    return try body(driver)
}

/// A reference tool's wall time in milliseconds, run to its end with `TERM=xterm-256color`; a failure
/// names the tool and its exit status.
func toolMilliseconds(_ executable: String, _ arguments: [String]) throws -> Double {
    let run = try ChildProcess.spawn(executable, arguments, environment: ["TERM": "xterm-256color"]).wait()
    guard run.exitStatus == 0 else { throw BenchError("\(executable) exited with status \(run.exitStatus)") }
    return run.seconds * 1000
}

/// A JPEG decoded to fit `box`, as photopick decodes previews; a failure names `what` could not be decoded.
func decodeJPEG(_ bytes: [UInt8], fitting box: PixelSize, what: String) throws -> PreviewImage {
    do {
        return try PreviewDecoder().decode(bytes, fitting: box).image
    } catch {
        throw BenchError("cannot decode \(what): \(error)")
    }
}
