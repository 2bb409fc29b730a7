import ArgumentParser
import Foundation
import PhotoPickKit

/// `list`: walk a whole library with `PhotoStream`, against a keep-alive curl loop over the same pages.
struct ListBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list", abstract: "Walk a 100,000-photo library: PhotoStream against curl with keep-alive."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Photos in the library.")
    var photos = 100_000

    func run() async throws {
        try Installer.ensure([ChildProcess.gnuTime: "time"])
        note("starting a server with \(photos) photos")
        let server = try BenchServer.start(photos: photos, megapixels: 0.3)
        defer { server.stop() }
        let scratch = try scratchDirectory("list")
        defer { try? FileManager.default.removeItem(at: scratch) }

        // curl cannot read cursors, so the page URLs are collected first (this walk also warms the server).
        let pageURLs = try await collectPageURLs(server)
        let config = scratch.appending(path: "curl.config")
        var text = "silent\nfail\nheader = \(curlQuoted("Authorization: Bearer \(server.key.secret)"))\n"
        for url in pageURLs { text += "url = \(curlQuoted(url))\noutput = \"/dev/null\"\n" }
        try writePrivateFile(text, to: config)

        var curl: [Measurement] = []
        var ours: [Measurement] = []
        for round in 1...options.rounds {
            note("round \(round) of \(options.rounds)")
            curl.append(try ChildProcess.measure("curl", ["-K", config.path]))
            ours.append(try ChildProcess.measure(
                ChildProcess.ownExecutable, ["_walk", "--base-url", server.baseURL.absoluteString, "--expect", String(photos)],
                environment: server.environment
            ))
        }
        let time = median(ours.map(\.seconds)), curlTime = median(curl.map(\.seconds))
        let memory = ours.map(\.peakRSSMegabytes).max()!, curlMemory = curl.map(\.peakRSSMegabytes).max()!
        Report.print([
            Figure(name: "list \(photos) photos", value: time, unit: "s", reference: "curl keep-alive loop", referenceValue: curlTime,
                   ratio: time / curlTime, target: "<= 1.0 ratio", met: time / curlTime <= 1.0),
            Figure(name: "list peak RSS", value: memory, unit: "MB", reference: "curl keep-alive loop", referenceValue: curlMemory,
                   ratio: memory / curlMemory, target: "<= 40 MB", met: memory <= 40),
        ], json: options.json)
    }

    private func collectPageURLs(_ server: BenchServer) async throws -> [String] {
        let client = server.client()
        var urls: [String] = []
        var cursor: String?
        repeat {
            let request = API.photos(limit: API.maximumPageSize, cursor: cursor)
            urls.append(request.url(relativeTo: server.baseURL).absoluteString)
            let page = try await client.send(request)
            cursor = page.hasNextPage ? page.pagination.nextCursor : nil
        } while cursor != nil
        try await client.shutdown()
        return urls
    }
}
