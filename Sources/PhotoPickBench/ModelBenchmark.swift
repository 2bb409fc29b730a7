import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit

/// `model`: the view model at 100,000 photos: memory per photo, filtering, and a 10,000-photo tag toggle.
struct ModelBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model", abstract: "Memory per loaded photo, filter and query times, a 10,000-photo tag toggle and burst stacking, at 100,000 photos."
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
        let queryMedian = median(results.map(\.queryMedianMilliseconds))
        let worst = results.max { $0.queryWorstMilliseconds < $1.queryWorstMilliseconds }!
        let stack = median(results.map(\.stackMilliseconds))
        Report.print([
            Figure(name: "memory per photo", value: perPhoto, unit: "B", reference: "empty-library RSS (MB)", referenceValue: baseline,
                   ratio: perPhoto / 400, target: "<= 400 B", met: perPhoto <= 400),
            Figure(name: "filter \(photos) photos", value: filter, unit: "ms", reference: "target", referenceValue: 15,
                   ratio: filter / 15, target: "<= 15 ms", met: filter <= 15),
            Figure(name: "toggle tag on 10,000", value: toggle, unit: "ms", reference: "target", referenceValue: 50,
                   ratio: toggle / 50, target: "<= 50 ms", met: toggle <= 50),
            Figure(name: "query, median of \(ModelHelper.queries.count)", value: queryMedian, unit: "ms", reference: "target", referenceValue: 15,
                   ratio: queryMedian / 15, target: "<= 15 ms", met: queryMedian <= 15),
            Figure(name: "query, worst: \(worst.queryWorst)", value: worst.queryWorstMilliseconds, unit: "ms", reference: "target",
                   referenceValue: 15, ratio: worst.queryWorstMilliseconds / 15, target: "<= 15 ms", met: worst.queryWorstMilliseconds <= 15),
            Figure(name: "stack bursts of \(photos)", value: stack, unit: "ms", reference: "query target", referenceValue: 15,
                   ratio: stack / 15, target: "reported", met: true),
        ], json: options.json)
        if !options.json {
            for (query, time) in results[0].queryMilliseconds.sorted(by: { $0.value > $1.value }) {
                print("  " + query.padding(toLength: 52, withPad: " ", startingAt: 0) + String(format: " %7.2f ms", time))
            }
        }
    }
}

/// What one `_model` run measured.
struct ModelFigures: Codable {
    let baselineMegabytes: Double
    let bytesPerPhoto: Double
    let filterMilliseconds: Double
    let toggleMilliseconds: Double
    /// Every query's median time, by its text.
    let queryMilliseconds: [String: Double]
    let queryMedianMilliseconds: Double
    let queryWorst: String
    let queryWorstMilliseconds: Double
    /// Turning burst stacking on.
    let stackMilliseconds: Double
}

/// `_model`: loads the library into a `BrowserSession` and measures it; prints one JSON line.
struct ModelHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_model", shouldDisplay: false)

    @Option var baseURL: String
    @Option var expect: Int
    @Option var state: String

    /// One query per kind of term the filter reads, and two that combine them.
    static let queries = [
        "camera:gr", "lens:zuiko", "iso>=3200", "f<=2.8", "focal:50..85", "taken:2019-06", "taken:2016-06-01..2018-08-31",
        "#Travel", "-#Travel", "rating>=3", "pick", "-reject", "label:red", "has:gps", "size>10MB", "untagged",
        "café", "rating>=3 -reject camera:gr iso>=800 taken:2018", "dsc -#Family has:gps f<=4 focal:20..60 size<5MB",
    ]

    @MainActor
    func run() async throws {
        let client = helperClient(baseURL)
        let tags = try await client.send(API.tags()).data
        // The session is not started: its events are fed here, so nothing but the model is measured.
        let session = try BrowserSession(client: client, configuration: .init(
            library: "bench", stateDirectory: URL(fileURLWithPath: state), downloadDirectory: URL(fileURLWithPath: state), clock: benchClock
        ))
        // Marks as a culled library has them (the demo starts with Reject only).
        let marks = [PhotoPickKit.Tag(id: 900_001, name: "3 stars", color: nil), PhotoPickKit.Tag(id: 900_002, name: "Pick", color: nil),
                     PhotoPickKit.Tag(id: 900_003, name: "Red", color: nil)]
        session.report(.tags(.tagsLoaded(tags + marks)))
        let baseline = residentBytes()
        for try await page in PhotoStream(client: client).pages {
            session.report(.catalogue(.photosArrived(page.data, nextCursor: page.pagination.nextCursor)))
        }
        session.report(.catalogue(.photosFinished(deleted: [], at: benchClock.now())))
        guard session.state.library.count == expect else { throw BenchError("loaded \(session.state.library.count) photos, expected \(expect)") }
        let loaded = residentBytes()

        var filterTimes: [Double] = []
        for text in ["ricoh", "img 2019", "x-t5", "café", "zzz", "dsc", "iphone 15"] {
            filterTimes.append(milliseconds { session.send(.browsing(.filterTextChanged(text))) })
        }
        filterTimes.append(milliseconds { session.send(.browsing(.tagFilterChanged(.any([tags[0].id])))) })
        session.send(.browsing(.filtersCleared))

        session.send(.browsing(.cursorMoved(.top)))
        session.send(.selection(.visualRangeToggled))
        session.send(.browsing(.cursorMoved(.position(9_999))))
        session.send(.selection(.visualRangeToggled))
        guard session.state.selection.count == 10_000 else { throw BenchError("selected \(session.state.selection.count)") }
        var toggleTimes: [Double] = []
        for _ in 0..<6 { toggleTimes.append(milliseconds { session.send(.tags(.tagNumberPressed(1))) }) }

        // A tenth of the library rated, a picked and labelled share of it, then every query three times.
        session.send(.tags(.markChosen(.rating(3))))
        session.send(.selection(.selectionCleared))
        session.send(.browsing(.cursorMoved(.position(5_000))))
        session.send(.selection(.visualRangeToggled))
        session.send(.browsing(.cursorMoved(.position(7_999))))
        session.send(.selection(.visualRangeToggled))
        session.send(.tags(.markChosen(.flag(.pick))))
        session.send(.tags(.labelToggled(.red)))
        session.send(.selection(.selectionCleared))
        var queryTimes: [String: Double] = [:]
        for query in Self.queries {
            queryTimes[query] = median((0..<3).map { _ in
                let time = milliseconds { session.send(.browsing(.filterTextChanged(query))) }
                session.send(.browsing(.filtersCleared))
                return time
            })
        }
        let worst = queryTimes.max { $0.value < $1.value }!
        let stack = milliseconds { session.send(.browsing(.stackingToggled)) }

        let figures = ModelFigures(
            baselineMegabytes: Double(baseline) / 1_000_000, bytesPerPhoto: Double(loaded - baseline) / Double(expect),
            filterMilliseconds: median(filterTimes), toggleMilliseconds: median(toggleTimes),
            queryMilliseconds: queryTimes, queryMedianMilliseconds: median(Array(queryTimes.values)),
            queryWorst: worst.key, queryWorstMilliseconds: worst.value, stackMilliseconds: stack
        )
        await session.stop()
        try await client.shutdown()
        try printJSONLine(figures)
    }

    private func milliseconds(_ work: () -> Void) -> Double {
        benchClock.measure(work).inSeconds * 1000
    }

    /// VmRSS from /proc, in bytes.
    private func residentBytes() -> Int {
        (processStatusKilobytes("VmRSS") ?? 0) * 1024
    }
}
