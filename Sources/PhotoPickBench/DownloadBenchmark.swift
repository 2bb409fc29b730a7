import ArgumentParser
import Foundation
import PhotoPickKit

/// `download`: originals with a bounded number in flight, against `curl --parallel` and `aria2c -j`.
struct DownloadBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "download", abstract: "Download 200 originals of 12 MP, 8 at a time: photopick against curl and aria2c."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Originals to download.")
    var count = 200

    @Option(help: "Downloads in flight.")
    var concurrency = 8

    @Option(help: "Size of the originals, in megapixels.")
    var megapixels = 12.0

    /// The photopick built beside this benchmark.
    static var photopick: String {
        URL(fileURLWithPath: ChildProcess.ownExecutable).deletingLastPathComponent().appending(path: "photopick").path
    }

    func run() async throws {
        try Installer.ensure(["aria2c": "aria2", ChildProcess.gnuTime: "time"])
        guard FileManager.default.isExecutableFile(atPath: Self.photopick) else {
            throw BenchError("\(Self.photopick) is missing; build it in release too: swift build -c release --product photopick")
        }
        note("starting a server with \(count) photos of \(megapixels) MP")
        let server = try BenchServer.start(photos: count, megapixels: megapixels)
        defer { server.stop() }
        let scratch = try scratchDirectory("download")
        defer { try? FileManager.default.removeItem(at: scratch) }

        let client = server.client(concurrency: concurrency)
        let photos = try await firstPhotos(count, client: client)
        let totalBytes = photos.reduce(0) { $0 + $1.bytes }
        note("encoding the \(photos.count) originals once, so every contender reads the server's cache")
        try await download(photos, with: client, concurrency: concurrency, into: scratch.appending(path: "warm-up"))
        try await client.shutdown()
        try FileManager.default.removeItem(at: scratch.appending(path: "warm-up"))

        let ids = photos.map { String($0.id) }.joined(separator: ",")
        let curlConfig = scratch.appending(path: "curl.config"), ariaInput = scratch.appending(path: "aria2.input")
        try writeReferenceInputs(photos, server, curlConfig: curlConfig, ariaInput: ariaInput)
        var results: [String: [Measurement]] = [:]
        for round in 1...options.rounds {
            note("round \(round) of \(options.rounds)")
            for contender in ["photopick", "photopick get", "curl", "aria2c"] {
                let directory = scratch.appending(path: contender)
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                results[contender, default: []].append(try run(contender, into: directory, server, curlConfig, ariaInput, ids: ids))
                let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).count
                guard files == photos.count else { throw BenchError("\(contender) left \(files) files, expected \(photos.count)") }
                try FileManager.default.removeItem(at: directory)
            }
        }
        Report.print(figures(results, totalBytes: totalBytes), json: options.json)
    }

    private func run(
        _ contender: String, into directory: URL, _ server: BenchServer, _ curlConfig: URL, _ ariaInput: URL, ids: String
    ) throws -> Measurement {
        switch contender {
        case "curl":
            return try ChildProcess.measure("curl", [
                "--silent", "--no-progress-meter", "--parallel", "--parallel-max", String(concurrency), "--output-dir", directory.path, "-K", curlConfig.path,
            ])
        case "photopick get":
            // The real command as a user runs it, as its own process: a fresh state folder each round, so
            // nothing counts as already downloaded; the library's first listing is part of its time.
            let state = directory.deletingLastPathComponent().appending(path: "get-state-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            var environment = server.environment
            for (name, folder) in ["XDG_STATE_HOME": "state", "XDG_CACHE_HOME": "cache", "XDG_CONFIG_HOME": "config", "XDG_DATA_HOME": "data"] {
                environment[name] = state.appending(path: folder).path
            }
            return try ChildProcess.measure(Self.photopick, [
                "get", "--ids", ids, "--to", directory.path, "--concurrency", String(concurrency), "--variant", "original",
                "--api-url", server.baseURL.absoluteString,
            ], environment: environment)
        case "aria2c":
            return try ChildProcess.measure("aria2c", [
                "-j", String(concurrency), "-i", ariaInput.path, "-d", directory.path, "--file-allocation=none",
                "--allow-overwrite=true", "--auto-file-renaming=false", "--console-log-level=error", "--summary-interval=0",
                "--download-result=hide", "--quiet=true",
            ])
        default:
            return try ChildProcess.measure(ChildProcess.ownExecutable, [
                "_download", "--base-url", server.baseURL.absoluteString, "--count", String(count),
                "--concurrency", String(concurrency), "--directory", directory.path,
            ], environment: server.environment)
        }
    }

    /// curl's config and aria2's input file: one entry per photo, the key inside (files readable by the owner only).
    private func writeReferenceInputs(_ photos: [Photo], _ server: BenchServer, curlConfig: URL, ariaInput: URL) throws {
        let header = "Authorization: Bearer \(server.key.secret)"
        var curl = "silent\nfail\nlocation\nheader = \(curlQuoted(header))\n"
        var aria = ""
        for photo in photos {
            let url = API.downloadLocation(id: photo.id).url(relativeTo: server.baseURL).absoluteString
            curl += "url = \(curlQuoted(url))\noutput = \(curlQuoted("\(photo.id).jpg"))\n"
            aria += "\(url)\n  out=\(photo.id).jpg\n  header=\(header)\n"
        }
        try writePrivateFile(curl, to: curlConfig)
        try writePrivateFile(aria, to: ariaInput)
    }

    private func figures(_ results: [String: [Measurement]], totalBytes: Int64) -> [Figure] {
        func throughput(_ contender: String) -> Double { Double(totalBytes) / 1e6 / median(results[contender]!.map(\.seconds)) }
        let ours = throughput("photopick")
        let memory = results["photopick"]!.map(\.peakRSSMegabytes).max()!
        var figures = ["curl", "aria2c"].map { reference in
            let theirs = throughput(reference)
            let label = reference == "curl" ? "curl --parallel-max \(concurrency)" : "aria2c -j \(concurrency)"
            return Figure(name: "download throughput", value: ours, unit: "MB/s", reference: label, referenceValue: theirs,
                          ratio: ours / theirs, target: ">= 1.0 ratio", met: ours / theirs >= 1.0)
        }
        let command = throughput("photopick get"), commandMemory = results["photopick get"]!.map(\.peakRSSMegabytes).max()!
        figures.append(Figure(name: "photopick get throughput", value: command, unit: "MB/s", reference: "the library, same run", referenceValue: ours,
                              ratio: command / ours, target: ">= 0.95 of the library", met: command / ours >= 0.95))
        figures.append(Figure(name: "photopick get peak RSS", value: commandMemory, unit: "MB", reference: "budget", referenceValue: 64,
                              ratio: commandMemory / 64, target: "<= 64 MB", met: commandMemory <= 64))
        let curlMemory = results["curl"]!.map(\.peakRSSMegabytes).max()!
        figures.append(Figure(name: "download peak RSS", value: memory, unit: "MB", reference: "curl --parallel-max \(concurrency)",
                              referenceValue: curlMemory, ratio: memory / curlMemory, target: "<= 64 MB", met: memory <= 64))
        return figures
    }
}
