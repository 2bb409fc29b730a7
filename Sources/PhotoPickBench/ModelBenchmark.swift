import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoPickKit
import TerminalUI

/// `model`: the view model with the whole library in it: memory per photo, keystrokes, queries, a
/// 10,000-photo tag toggle, select all and a tag, sort, `G` and burst stacking; at `--photos` and,
/// beside it in the same run, at 100,000.
struct ModelBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Memory per photo, keystrokes, queries, tag toggles, select all, sort and stacking, at --photos and at 100,000."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Photos in the library; at least 10,000. Above 100,000, the figures at 100,000 are measured beside them.")
    var photos = 100_000

    func validate() throws {
        guard photos >= 10_000 else { throw ValidationError("--photos must be at least 10,000: the toggle figure tags 10,000 photos") }
    }

    func run() async throws {
        let sizes = BenchSizes(photos: photos)
        var bySize: [Int: [ModelFigures]] = [:]
        for size in sizes.all { bySize[size] = try measure(photos: size) }
        let large = bySize[sizes.large]!, small = bySize[sizes.small]!
        func figure(_ name: String, _ unit: String, target: Double, _ value: (ModelFigures) -> Double) -> Figure {
            .beside(name, large: median(large.map(value)), small: median(small.map(value)), sizes: sizes, unit: unit, target: target)
        }
        func atSmall(_ name: String, _ value: (ModelFigures) -> Double) -> Figure {
            let large = median(large.map(value)), small = median(small.map(value))
            return Figure(name: "\(name) at \(sizes.smallLabel)", value: small, unit: "ms", reference: "at \(sizes.largeLabel)",
                          referenceValue: large, ratio: small / 50, target: "<= 50 ms", met: small <= 50)
        }
        let worst = large.max { $0.queryWorstMilliseconds < $1.queryWorstMilliseconds }!
        Report.print([
            figure("memory per photo", "B", target: 200, \.bytesPerPhoto),
            figure("resident memory, whole library", "MB", target: 250, \.loadedMegabytes),
            figure("a filter keystroke on screen, worst", "ms", target: 16, \.echoWorstMilliseconds),
            figure("filter text, result", "ms", target: 30, \.filterMilliseconds),
            figure("query of \(ModelHelper.queries.count), median", "ms", target: 30, \.queryMedianMilliseconds),
            figure("query, worst (\(worst.queryWorst))", "ms", target: 30, \.queryWorstMilliseconds),
            figure("toggle a tag on 10,000", "ms", target: 50, \.toggleMilliseconds),
            figure("select all and tag", "ms", target: 200, \.selectAllTagMilliseconds),
            figure("j (next photo)", "ms", target: 16, \.downMilliseconds),
            figure("G (last photo)", "ms", target: 16, \.lastMilliseconds),
            figure("sort by size", "ms", target: 30, \.sortMilliseconds),
            figure("stack bursts", "ms", target: 50, \.stackMilliseconds),
            figure("cull header: marks of the photos listed", "ms", target: 16, \.cullSummaryMilliseconds),
            // The charts' bound is at 100,000 photos: that size's figure is the one held to it, the larger beside.
            atSmall("charts (I): figures and the view at 160×48", \.chartsMilliseconds),
            atSmall("charts (I): the figures alone", \.statsMilliseconds),
        ], json: options.json)
        if !options.json {
            print("  queries at \(sizes.largeLabel) (median of 3, ms; at \(sizes.smallLabel) beside):")
            let smallQueries = small[0].queryMilliseconds
            for (query, time) in large[0].queryMilliseconds.sorted(by: { $0.value > $1.value }) {
                print("  " + query.padding(toLength: 52, withPad: " ", startingAt: 0)
                      + String(format: " %7.2f  %7.2f", time, smallQueries[query] ?? .nan))
            }
        }
    }

    /// Every round at one size, each in a fresh process, against a server in a process of its own.
    private func measure(photos: Int) throws -> [ModelFigures] {
        note("starting a server with \(photos) photos")
        let server = try BenchServer.start(photos: photos, megapixels: 0.3)
        defer { server.stop() }
        let scratch = try scratchDirectory("model")
        defer { try? FileManager.default.removeItem(at: scratch) }
        return try (1...options.rounds).map { round in
            note("\(photos) photos: round \(round) of \(options.rounds)")
            // A fresh process, so its resident memory starts from nothing photopick allocated.
            return try runHelper(
                ["_model", "--base-url", server.baseURL.absoluteString, "--expect", String(photos), "--state", scratch.appending(path: "state-\(round)").path],
                environment: server.environment
            )
        }
    }
}

/// What one `_model` run measured.
struct ModelFigures: Codable {
    let baselineMegabytes: Double
    let bytesPerPhoto: Double
    /// The process's resident memory with the whole library loaded.
    let loadedMegabytes: Double
    /// The slowest filter keystroke to reach the screen (the list follows when it is ready).
    let echoWorstMilliseconds: Double
    let filterMilliseconds: Double
    let toggleMilliseconds: Double
    /// Every query's median time, by its text.
    let queryMilliseconds: [String: Double]
    let queryMedianMilliseconds: Double
    let queryWorst: String
    let queryWorstMilliseconds: Double
    /// Turning burst stacking on.
    let stackMilliseconds: Double
    /// `a` then a tag, on every photo: until both are on screen and the tag is durable.
    let selectAllTagMilliseconds: Double
    let downMilliseconds: Double
    let lastMilliseconds: Double
    let sortMilliseconds: Double
    /// The cull header's counts of the whole list.
    let cullSummaryMilliseconds: Double
    /// `LibraryStats` of the whole list, and that with the charts drawn on a 160×48 canvas.
    let statsMilliseconds: Double
    let chartsMilliseconds: Double
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
        var echoes: [Double] = []
        for text in ["ricoh", "img 2019", "x-t5", "café", "zzz", "dsc", "iphone 15"] {
            filterTimes.append(try await untilFiltered(session, &echoes) { session.send(.browsing(.filterTextChanged(text))) })
        }
        filterTimes.append(try await untilFiltered(session, &echoes) { session.send(.browsing(.tagFilterChanged(.any([tags[0].id])))) })
        _ = try await untilFiltered(session, &echoes) { session.send(.browsing(.filtersCleared)) }

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
            var times: [Double] = []
            for _ in 0..<3 {
                times.append(try await untilFiltered(session, &echoes) { session.send(.browsing(.filterTextChanged(query))) })
                _ = try await untilFiltered(session, &echoes) { session.send(.browsing(.filtersCleared)) }
            }
            queryTimes[query] = median(times)
        }
        let worst = queryTimes.max { $0.value < $1.value }!

        session.send(.browsing(.cursorMoved(.top)))
        let down = median((0..<20).map { _ in milliseconds { session.send(.browsing(.cursorMoved(.down))) } })
        let last = milliseconds { session.send(.browsing(.cursorMoved(.bottom))) }
        let sort = milliseconds { session.send(.browsing(.sortChosen(.size))) }
        session.send(.browsing(.sortChosen(.captureTime)))
        let stack = milliseconds { session.send(.browsing(.stackingToggled)) }
        session.send(.browsing(.stackingToggled))
        // Every photo selected and tagged: the tag is one outbox row, durable before the key returns.
        let selectAllTag = milliseconds {
            session.send(.selection(.allMatchingSelected))
            session.send(.tags(.tagNumberPressed(2)))
        }
        // Every row: a RAW+JPEG pair is one (the tag goes on both its files).
        guard session.state.selection.count == session.state.list.count else {
            throw BenchError("select all chose \(session.state.selection.count) of \(session.state.list.count) rows")
        }

        // The cull header, and the charts as `I` opens and draws them, on the whole list (median of 5).
        let cullSummary = median((0..<5).map { _ in milliseconds { _ = session.state.cullSummary() } })
        let stats = median((0..<5).map { _ in milliseconds { _ = session.state.libraryStats() } })
        let screen = Screen(context: ViewContext(theme: Theme(depth: .colors256), demo: true, now: benchClock.now()))
        let charts = median((0..<5).map { _ in
            milliseconds {
                var ui = UIState()
                ui.openStats(session.state)
                var canvas = Canvas(width: 160, height: 48)
                screen.render(session.state, ui, into: &canvas)
            }
        })

        let figures = ModelFigures(
            baselineMegabytes: Double(baseline) / 1_000_000, bytesPerPhoto: Double(loaded - baseline) / Double(expect),
            loadedMegabytes: Double(loaded) / 1_000_000, echoWorstMilliseconds: echoes.max() ?? .infinity,
            filterMilliseconds: median(filterTimes), toggleMilliseconds: median(toggleTimes),
            queryMilliseconds: queryTimes, queryMedianMilliseconds: median(Array(queryTimes.values)),
            queryWorst: worst.key, queryWorstMilliseconds: worst.value, stackMilliseconds: stack,
            selectAllTagMilliseconds: selectAllTag, downMilliseconds: down, lastMilliseconds: last, sortMilliseconds: sort,
            cullSummaryMilliseconds: cullSummary, statsMilliseconds: stats, chartsMilliseconds: charts
        )
        await session.stop()
        try await client.shutdown()
        try printJSONLine(figures)
    }

    /// Sends a filter change and waits for its list: the keystroke's own time goes to `echoes` (a large
    /// library is filtered in the background, the key on screen at once), the result's is returned.
    @MainActor
    private func untilFiltered(_ session: BrowserSession, _ echoes: inout [Double], _ send: () -> Void) async throws -> Double {
        let clock = benchClock
        let start = clock.elapsed()
        send()
        echoes.append((clock.elapsed() - start).inSeconds * 1000)
        while session.state.list.isUpdating { try await clock.sleep(for: .microseconds(100)) }
        return (clock.elapsed() - start).inSeconds * 1000
    }

    private func milliseconds(_ work: () -> Void) -> Double {
        benchClock.measure(work).inSeconds * 1000
    }

    /// VmRSS from /proc, in bytes.
    private func residentBytes() -> Int {
        (processStatusKilobytes("VmRSS") ?? 0) * 1024
    }
}
