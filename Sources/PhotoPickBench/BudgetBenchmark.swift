import ArgumentParser
import Foundation
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPreviews

/// `budget`: a big library behind a real rate limit, the server in a process of its own. A cold start
/// (first rows, the whole catalogue against the fastest the budget allows, and the user's tag toggles
/// and previews while the listing runs), then a warm start from the catalogue in a fresh process
/// (browsable, its own RSS), the requests until photos added meanwhile show, and the pace of the
/// re-check after them; at `--photos` and, beside it in the same run, at 100,000.
struct BudgetBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Cold and warm starts of a big library behind a real rate limit, the refresh's requests, at --photos and at 100,000."
    )

    @Flag(help: "Print one JSON object: {\"figures\": [...]}.")
    var json = false
    @Option(help: "Photos in the library. Above 100,000, the figures at 100,000 are measured beside them.")
    var photos = 100_000
    @Option(help: "Requests per window, as the server allows.")
    var limit = 300
    @Option(help: "The window, in seconds; a shorter one with a proportionally smaller limit keeps the rate.")
    var window = 60
    @Option(help: "Seconds between the user's actions during the cold listing.")
    var every = 5.0
    @Option(help: "The largest library listed cold behind the limit; a larger one's catalogue is listed with the limit lifted (at 1,000,000 and 300 a minute the cold listing alone is 11 minutes).")
    var coldUpTo = 100_000
    @Option(help: "Seconds the warm start's re-check is watched, to measure its pace.")
    var watch = 60.0

    func run() async throws {
        let sizes = BenchSizes(photos: photos)
        var cold: [Int: BudgetRun.Cold] = [:], warm: [Int: BudgetRun.Warm] = [:]
        for size in sizes.all { (cold[size], warm[size]) = try await measure(photos: size) }
        let (large, small) = (sizes.large, sizes.small)
        let pages = { (photos: Int) in Double((photos + API.maximumPageSize - 1) / API.maximumPageSize) }
        // The fastest the budget allows: a full window's budget is there at once, then one per window.
        let floor = { (photos: Int) in pages(photos) / Double(limit) * Double(window) }
        let shareBudget = Double(limit) * RefreshPace.share * 60 / Double(window)
        let cycle = { (photos: Int) in RefreshPace.interval(photos: photos, limit: limit * 60 / window).map { $0.inSeconds * pages(photos) / 3600 } ?? 0 }
        func coldFigure(_ name: String, unit: String, target: String, met: (Double) -> Bool, _ measured: (BudgetRun.Cold) -> Double) -> Figure {
            let value: Double = cold[large].map(measured) ?? .nan, reference: Double = cold[small].map(measured) ?? .nan
            return Figure(name: "\(name) at \(sizes.largeLabel)", value: value, unit: unit, reference: "at \(sizes.smallLabel)",
                          referenceValue: reference, ratio: value / reference, target: target, met: met(value),
                          note: cold[large] == nil ? "not listed cold above --cold-up-to \(coldUpTo.formatted()) photos" : nil)
        }
        Report.print([
            coldFigure("cold: first rows", unit: "ms", target: "<= 500 ms", met: { $0 <= 500 }) { $0.firstRows * 1000 },
            coldFigure("cold: whole catalogue / floor", unit: "ratio", target: "<= 1.1", met: { $0 <= 1.1 }) { $0.complete / floor($0.photos) },
            coldFigure("cold: toggle confirmed p95", unit: "ms", target: "<= 1000 ms", met: { $0 <= 1000 }) { percentile($0.toggleSeconds, 0.95) * 1000 },
            coldFigure("cold: preview p95", unit: "ms", target: "<= 1500 ms", met: { $0 <= 1500 }) { percentile($0.previewSeconds, 0.95) * 1000 },
            .beside("warm: browsable", large: warm[large]!.browsable * 1000, small: warm[small]!.browsable * 1000, sizes: sizes, unit: "ms", target: 500),
            .beside("warm: photopick's RSS, browsable", large: warm[large]!.residentMegabytes, small: warm[small]!.residentMegabytes,
                    sizes: sizes, unit: "MB", target: 250),
            .beside("warm: photopick's peak RSS, refreshing", large: warm[large]!.peakMegabytes, small: warm[small]!.peakMegabytes,
                    sizes: sizes, unit: "MB", target: 250),
            .beside("refresh: pages until new photos show", large: Double(warm[large]!.pagesUntilNew),
                    small: Double(warm[small]!.pagesUntilNew), sizes: sizes, unit: "req", target: 2),
            Figure(name: "refresh: every request until then at \(sizes.largeLabel)", value: Double(warm[large]!.requestsUntilNew), unit: "req",
                   reference: "at \(sizes.smallLabel)", referenceValue: Double(warm[small]!.requestsUntilNew), ratio: 1, target: "reported",
                   met: true, note: "with the start's own /me and /tags"),
            .beside("refresh: re-check requests a minute", large: warm[large]!.recheckPerMinute, small: warm[small]!.recheckPerMinute,
                    sizes: sizes, unit: "req", target: shareBudget),
            Figure(name: "refresh: a whole re-check at \(sizes.largeLabel)", value: cycle(large), unit: "h", reference: "at \(sizes.smallLabel)",
                   referenceValue: cycle(small), ratio: cycle(large) / max(cycle(small), 1e-9), target: "reported",
                   met: true, note: "pages x the pace at \(Int(RefreshPace.share * 100))% of \(limit) requests per \(window) s"),
        ], json: json)
    }

    /// One size: a cold listing behind the limit (or lifted above `coldUpTo`), then a warm start in a
    /// child process against the same library with photos added meanwhile.
    private func measure(photos: Int) async throws -> (BudgetRun.Cold?, BudgetRun.Warm) {
        let scratch = try scratchDirectory("budget")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let data = scratch.appending(path: "server"), state = scratch.appending(path: "state")
        let listedCold = photos <= coldUpTo
        note("making a library of \(photos) photos\(listedCold ? " behind \(limit) requests per \(window) s" : ", listed with the limit lifted")")
        let first = try BenchServer.start(photos: photos, megapixels: 0.3, rateLimit: listedCold ? limit : 100_000_000, window: window, data: data)
        let cold = try await BudgetRun.cold(server: first, photos: photos, state: state, every: listedCold ? every : nil)
        first.stop(keepData: true)
        // The user comes back later: the library file written after the listing is there by then.
        try await BudgetRun.waitForLibraryFile(in: state, newerThan: cold.finishedAt)

        let server = try BenchServer.start(photos: photos, megapixels: 0.3, rateLimit: limit, window: window, data: data)
        defer { server.stop() }
        try server.addPhotos(3)
        note("warm start of \(photos) photos, 3 added since")
        let child = try ChildProcess.spawn(
            ChildProcess.ownExecutable,
            ["_warm", "--base-url", server.baseURL.absoluteString, "--expect", String(photos + 3), "--state", state.path, "--watch", String(watch)],
            environment: server.environment, captureOutput: true
        )
        let atStart = server.requests, pagesAtStart = server.pages
        var warm = BudgetRun.Warm()
        var newAt = Duration.zero
        while let line = child.readLine() {
            let parts = line.split(separator: " ")
            switch parts.first {
            case "BROWSABLE": (warm.browsable, warm.residentMegabytes) = (Double(parts[1])!, Double(parts[2])!)
            case "NEW":
                warm.requestsUntilNew = server.requests - atStart
                warm.pagesUntilNew = server.pages - pagesAtStart
                newAt = benchClock.elapsed()
            case "WATCHED":
                warm.peakMegabytes = Double(parts[2])!
                warm.recheckPerMinute = server.pagesPerMinute(after: newAt)
            default: break
            }
        }
        guard child.wait().exitStatus == 0, warm.browsable.isFinite else { throw BenchError("the warm start failed") }
        return (listedCold ? cold : nil, warm)
    }
}

/// `_warm`: a warm start from the catalogue in `--state`, in a process of its own; prints
/// `BROWSABLE <s> <RSS MB>`, `NEW` when the library reaches `--expect` photos, then after `--watch`
/// seconds of the refresh, `WATCHED <s> <peak RSS MB>`.
struct WarmHelper: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "_warm", shouldDisplay: false)

    @Option var baseURL: String
    @Option var expect: Int
    @Option var state: String
    @Option var watch: Double

    @MainActor
    func run() async throws {
        let clock = benchClock
        let started = clock.elapsed()
        let client = helperClient(baseURL)
        let session = try BrowserSession(client: client, configuration: .init(
            library: "budget", stateDirectory: URL(fileURLWithPath: state), downloadDirectory: URL(fileURLWithPath: state),
            clock: clock, refresh: .onStart
        ))
        var browsable: Duration?
        session.onEvent = { event, _ in
            if case .report(.catalogue(.catalogueLoaded)) = event, browsable == nil { browsable = clock.elapsed() - started }
        }
        try session.start()
        while browsable == nil { try await clock.sleep(for: .milliseconds(1)) }
        let resident = Double(processStatusKilobytes("VmRSS") ?? 0) / 1024
        say("BROWSABLE \(browsable!.inSeconds) \(resident)")
        let waiting = clock.elapsed()
        while session.state.library.count < expect {
            guard clock.elapsed() - waiting < .seconds(120) else { throw BenchError("the 3 new photos did not show in 2 minutes") }
            try await clock.sleep(for: .milliseconds(5))
        }
        say("NEW")
        let watching = clock.elapsed()
        try await clock.sleep(for: .seconds(watch))
        say("WATCHED \((clock.elapsed() - watching).inSeconds) \(Double(processStatusKilobytes("VmHWM") ?? 0) / 1024)")
        await session.stop()
        try await client.shutdown()
    }

    /// A line to the parent, at once (not when a buffer fills).
    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}

/// One session's measurements.
@MainActor
enum BudgetRun {
    struct Cold {
        var photos: Int
        /// When the listing completed, by the wall clock (the library file is written after it).
        var finishedAt = Date.distantPast
        var firstRows: Double
        var complete: Double
        var toggleSeconds: [Double]
        var previewSeconds: [Double]
    }

    struct Warm {
        var browsable = Double.infinity
        var residentMegabytes = Double.nan
        var peakMegabytes = Double.nan
        var requestsUntilNew = 0
        var pagesUntilNew = 0
        var recheckPerMinute = Double.nan
    }

    private static func session(_ server: BenchServer, state: URL, refresh: RefreshPolicy) throws -> (BrowserSession, APIClient) {
        let client = server.client()
        let session = try BrowserSession(client: client, configuration: .init(
            library: "budget", stateDirectory: state, downloadDirectory: state, clock: benchClock, refresh: refresh
        ))
        return (session, client)
    }

    /// No catalogue yet: the listing starts from nothing, and every `every` seconds (if given) the user
    /// toggles a tag on a photo and looks at another, each timed from the action to the server's confirmation.
    static func cold(server: BenchServer, photos: Int, state: URL, every: Double?) async throws -> Cold {
        let (session, client) = try session(server, state: state, refresh: .onStart)
        let clock = benchClock
        let started = clock.elapsed()
        var firstRows: Double?
        var complete: Double?
        var finishedAt: Date?
        var toggles: [Int: Duration] = [:]
        var toggleSeconds: [Double] = []
        session.onEvent = { event, state in
            switch event {
            case .report(.catalogue(.photosArrived)) where firstRows == nil && state.list.count > 0: firstRows = (clock.elapsed() - started).inSeconds
            case .report(.catalogue(.photosFinished)):
                complete = (clock.elapsed() - started).inSeconds
                finishedAt = clock.now()
            case .report(.tags(.tagDeltasSent(let photoID, _, _))):
                if let pressed = toggles.removeValue(forKey: photoID) { toggleSeconds.append((clock.elapsed() - pressed).inSeconds) }
            default: break
            }
        }
        try session.start()
        let previews = PreviewLoader(client: client, disk: nil)
        var previewSeconds: [Double] = []
        var random = SystemRandomNumberGenerator()
        note(every.map { "cold listing, with a toggle and a preview every \($0) s" } ?? "listing")
        while complete == nil {
            guard let every else {
                try await benchClock.sleep(for: .milliseconds(50))
                continue
            }
            try await benchClock.sleep(for: .seconds(every))
            let list = session.state.list
            guard complete == nil, list.count > 0, !session.state.tags.tags.isEmpty else { continue }
            session.send(.browsing(.cursorMoved(.position(Int.random(in: 0..<list.count, using: &random)))))
            if let photo = session.state.currentPhoto, toggles[photo.id] == nil {
                toggles[photo.id] = clock.elapsed()
                session.send(.tags(.tagNumberPressed(1)))
            }
            let target = session.state.library.id(at: list.libraryIndex(at: Int.random(in: 0..<list.count, using: &random)))
            let request = PreviewRequest(photoID: target, box: PixelSize(width: 800, height: 600))
            let asked = clock.elapsed()
            await previews.want([request], shown: 1)
            while !previews.store.holds(request) { try await benchClock.sleep(for: .milliseconds(5)) }
            previewSeconds.append((clock.elapsed() - asked).inSeconds)
        }
        let waited = clock.elapsed()
        while !toggles.isEmpty, clock.elapsed() - waited < .seconds(30) { try await benchClock.sleep(for: .milliseconds(20)) }
        await previews.stop()
        await session.stop()
        try await client.shutdown()
        return Cold(photos: photos, finishedAt: finishedAt ?? .distantPast, firstRows: firstRows ?? .infinity, complete: complete ?? .infinity, toggleSeconds: toggleSeconds, previewSeconds: previewSeconds)
    }
}

/// The value at `fraction` of the sorted values; not a number when there are none.
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
}

extension BudgetRun {
    /// Waits, at most two minutes, for the library file beside the catalogue in `state` to be written
    /// after `date`.
    static func waitForLibraryFile(in state: URL, newerThan date: Date) async throws {
        let clock = benchClock
        let start = clock.elapsed()
        while clock.elapsed() - start < .seconds(120) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
            for name in names where name.hasSuffix(".columns") {
                let modified = (try? FileManager.default.attributesOfItem(atPath: state.appending(path: name).path)[.modificationDate]) as? Date
                if let modified, modified >= date { return }
            }
            try await clock.sleep(for: .milliseconds(100))
        }
        throw BenchError("no library file was written within two minutes of the listing")
    }
}
