import ArgumentParser
import Foundation
import PhotoPickKit
import PhotoPickServer

/// `_server`: the embedded server for a benchmark; prints `READY <base URL> <key>` and serves until killed.
struct ServerHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_server", shouldDisplay: false)

    @Option var photos: Int
    @Option var megapixels: Double
    @Option var data: String

    func run() async throws {
        // The budget is lifted: these benchmarks measure transfer, not the rate limit.
        let server = try await PhotoPickServer.start(ServerConfiguration(
            port: 0, dataDirectory: URL(fileURLWithPath: data), photoCount: photos, rateLimit: 100_000_000,
            originalMegapixels: megapixels
        ))
        FileHandle.standardOutput.write(Data("READY \(server.baseURL.absoluteString) \(server.demoKey)\n".utf8))
        try await server.waitUntilStopped()
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
    var configuration = APIClient.Configuration(baseURL: baseURL, apiKey: apiKey)
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
