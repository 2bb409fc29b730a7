import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit

/// `model`: the view model at 100,000 photos: memory per photo, filtering, and a 10,000-photo tag toggle.
struct ModelBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "Memory per loaded photo, filter time and a 10,000-photo tag toggle, at 100,000 photos."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Photos in the library; at least 10,000.")
    var photos = 100_000

    func validate() throws {
        guard photos >= 10_000 else { throw ValidationError("--photos must be at least 10,000: the toggle figure tags 10,000 photos") }
    }

    func run() async throws {
        note("starting a server with \(photos) photos")
        let server = try BenchServer.start(photos: photos, megapixels: 0.3)
        defer { server.stop() }
        let scratch = try scratchDirectory("model")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var results: [ModelFigures] = []
        for round in 1...options.rounds {
            note("round \(round) of \(options.rounds)")
            // Each round is a fresh process, so its resident memory starts from nothing photopick allocated.
            results.append(try runHelper(
                ["_model", "--base-url", server.baseURL.absoluteString, "--expect", String(photos), "--state", scratch.appending(path: "state-\(round)").path],
                environment: server.environment
            ))
        }
        let perPhoto = median(results.map(\.bytesPerPhoto))
        let filter = median(results.map(\.filterMilliseconds))
        let toggle = median(results.map(\.toggleMilliseconds))
        let baseline = median(results.map(\.baselineMegabytes))
        Report.print([
            Figure(name: "memory per photo", value: perPhoto, unit: "B", reference: "empty-library RSS (MB)", referenceValue: baseline,
                   ratio: perPhoto / 400, target: "<= 400 B", met: perPhoto <= 400),
            Figure(name: "filter \(photos) photos", value: filter, unit: "ms", reference: "target", referenceValue: 15,
                   ratio: filter / 15, target: "<= 15 ms", met: filter <= 15),
            Figure(name: "toggle tag on 10,000", value: toggle, unit: "ms", reference: "target", referenceValue: 50,
                   ratio: toggle / 50, target: "<= 50 ms", met: toggle <= 50),
        ], json: options.json)
    }
}

/// What one `_model` run measured.
struct ModelFigures: Codable {
    let baselineMegabytes: Double
    let bytesPerPhoto: Double
    let filterMilliseconds: Double
    let toggleMilliseconds: Double
}

/// `_model`: loads the library into a `BrowserSession` and measures it; prints one JSON line.
struct ModelHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_model", shouldDisplay: false)

    @Option var baseURL: String
    @Option var expect: Int
    @Option var state: String

    @MainActor
    func run() async throws {
        let client = helperClient(baseURL)
        let tags = try await client.send(API.tags()).data
        // The session is not started: its events are fed here, so nothing but the model is measured.
        let session = try BrowserSession(client: client, configuration: .init(
            library: "bench", stateDirectory: URL(fileURLWithPath: state), downloadDirectory: URL(fileURLWithPath: state)
        ))
        session.send(.tagsLoaded(tags))
        let baseline = residentBytes()
        for try await page in PhotoStream(client: client).pages {
            session.send(.photosArrived(page.data, nextCursor: page.pagination.nextCursor))
        }
        session.send(.photosFinished())
        guard session.state.library.count == expect else { throw BenchError("loaded \(session.state.library.count) photos, expected \(expect)") }
        let loaded = residentBytes()

        var filterTimes: [Double] = []
        for text in ["ricoh", "img 2019", "x-t5", "café", "zzz", "dsc", "iphone 15"] {
            filterTimes.append(milliseconds { session.send(.filterTextChanged(text)) })
        }
        filterTimes.append(milliseconds { session.send(.tagFilterChanged(.any([tags[0].id]))) })
        session.send(.filtersCleared)

        session.send(.cursorMoved(.top))
        session.send(.visualRangeToggled)
        session.send(.cursorMoved(.position(9_999)))
        session.send(.visualRangeToggled)
        guard session.state.selection.count == 10_000 else { throw BenchError("selected \(session.state.selection.count)") }
        var toggleTimes: [Double] = []
        for _ in 0..<6 { toggleTimes.append(milliseconds { session.send(.tagNumberPressed(1)) }) }

        let figures = ModelFigures(
            baselineMegabytes: Double(baseline) / 1_000_000, bytesPerPhoto: Double(loaded - baseline) / Double(expect),
            filterMilliseconds: median(filterTimes), toggleMilliseconds: median(toggleTimes)
        )
        await session.stop()
        try await client.shutdown()
        try printJSONLine(figures)
    }

    private func milliseconds(_ work: () -> Void) -> Double {
        ContinuousClock().measure(work).inSeconds * 1000
    }

    /// VmRSS from /proc, in bytes.
    private func residentBytes() -> Int {
        (processStatusKilobytes("VmRSS") ?? 0) * 1024
    }
}
