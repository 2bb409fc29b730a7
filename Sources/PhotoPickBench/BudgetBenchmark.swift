import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import PhotoBrowser
import PhotoImaging
import PhotoPickKit
import PhotoPickServer
import PhotoPreviews

/// `budget`: a big library behind a real rate limit. A cold start (first rows, the whole catalogue
/// against the fastest the budget allows, and the user's tag toggles and previews while the listing
/// runs), then a warm start from the catalogue (browsable, RSS) and the requests its refresh spends.
struct BudgetBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "budget",
        abstract: "Cold and warm starts of a big library behind a real rate limit, and the user's requests during a listing."
    )

    @Flag(help: "Print one JSON object: {\"figures\": [...]}.")
    var json = false
    @Option(help: "Photos in the library.")
    var photos = 100_000
    @Option(help: "Requests per window, as the server allows.")
    var limit = 300
    @Option(help: "The window, in seconds; a shorter one with a proportionally smaller limit keeps the rate.")
    var window = 60
    @Option(help: "Seconds between the user's actions during the cold listing.")
    var every = 5.0

    func run() async throws {
        let scratch = try scratchDirectory("budget")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let requests = NIOLockedValueBox(0)
        note("making a library of \(photos) photos behind \(limit) requests per \(window) s")
        let server = try await PhotoPickServer.start(ServerConfiguration(
            port: 0, dataDirectory: scratch.appending(path: "server"), photoCount: photos, rateLimit: limit,
            rateLimitWindow: window, originalMegapixels: 0.3, requestLog: { _ in requests.withLockedValue { $0 += 1 } }
        ))
        let cold = try await BudgetRun.cold(server: server, state: scratch.appending(path: "state"), every: every)
        note("warm start")
        let before = requests.withLockedValue { $0 }
        let warm = try await BudgetRun.warm(server: server, state: scratch.appending(path: "state"))
        let refreshRequests = requests.withLockedValue { $0 } - before
        await server.stop()

        let pages = Double((photos + API.maximumPageSize - 1) / API.maximumPageSize)
        // The fastest the budget allows: a full window's budget is there at once, then one per window.
        let floor = pages / Double(limit) * Double(window)
        let toggle = percentile(cold.toggleSeconds, 0.95)
        let preview = percentile(cold.previewSeconds, 0.95)
        Report.print([
            Figure(name: "cold: first rows", value: cold.firstRows * 1000, unit: "ms", reference: "target", referenceValue: 500,
                   ratio: cold.firstRows / 0.5, target: "<= 500 ms", met: cold.firstRows <= 0.5),
            Figure(name: "cold: whole catalogue", value: cold.complete, unit: "s", reference: "floor (pages/budget)", referenceValue: floor,
                   ratio: cold.complete / floor, target: "<= 1.1 ratio", met: cold.complete <= floor * 1.1),
            Figure(name: "cold: toggle confirmed p95", value: toggle * 1000, unit: "ms", reference: "samples", referenceValue: Double(cold.toggleSeconds.count),
                   ratio: toggle / 1, target: "<= 1000 ms", met: toggle <= 1),
            Figure(name: "cold: preview p95", value: preview * 1000, unit: "ms", reference: "samples", referenceValue: Double(cold.previewSeconds.count),
                   ratio: preview / 1.5, target: "<= 1500 ms", met: preview <= 1.5),
            Figure(name: "warm: browsable", value: warm.browsable * 1000, unit: "ms", reference: "RSS (MB)", referenceValue: warm.residentMegabytes,
                   ratio: warm.browsable / 0.5, target: "<= 500 ms", met: warm.browsable <= 0.5),
            Figure(name: "refresh: requests", value: Double(refreshRequests), unit: "req", reference: "pages", referenceValue: pages,
                   ratio: Double(refreshRequests) / pages, target: "reported", met: true),
            Figure(name: "refresh: duration", value: warm.refresh, unit: "s", reference: "floor (pages/budget)", referenceValue: floor,
                   ratio: warm.refresh / floor, target: "reported", met: true),
        ], json: json)
    }

    private func percentile(_ values: [Double], _ fraction: Double) -> Double {
        guard !values.isEmpty else { return .infinity }
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count) * fraction).rounded(.up)) - 1)]
    }
}

/// One session's measurements.
@MainActor
enum BudgetRun {
    struct Cold {
        var firstRows: Double
        var complete: Double
        var toggleSeconds: [Double]
        var previewSeconds: [Double]
    }

    struct Warm {
        var browsable: Double
        var residentMegabytes: Double
        var refresh: Double
    }

    private static func session(_ server: PhotoPickServer, state: URL, refresh: RefreshPolicy) throws -> (BrowserSession, APIClient) {
        let client = benchClient(server.baseURL, apiKey: .fixed(APIKey(server.demoKey)), concurrency: 8)
        let session = try BrowserSession(client: client, configuration: .init(
            library: "budget", stateDirectory: state, downloadDirectory: state, clock: benchClock, refresh: refresh
        ))
        return (session, client)
    }

    /// No catalogue yet: the listing starts from nothing, and every `every` seconds the user toggles a tag
    /// on a photo and looks at another, each timed from the action to the server's confirmation.
    static func cold(server: PhotoPickServer, state: URL, every: Double) async throws -> Cold {
        let (session, client) = try session(server, state: state, refresh: .onStart)
        let clock = benchClock
        let started = clock.elapsed()
        var firstRows: Double?
        var complete: Double?
        var toggles: [Int: Duration] = [:]
        var toggleSeconds: [Double] = []
        session.onEvent = { event, state in
            switch event {
            case .report(.catalogue(.photosArrived)) where firstRows == nil && state.list.count > 0: firstRows = (clock.elapsed() - started).inSeconds
            case .report(.catalogue(.photosFinished)): complete = (clock.elapsed() - started).inSeconds
            case .report(.tags(.tagDeltasSent(let photoID, _, _))):
                if let pressed = toggles.removeValue(forKey: photoID) { toggleSeconds.append((clock.elapsed() - pressed).inSeconds) }
            default: break
            }
        }
        try session.start()
        let previews = PreviewLoader(client: client, disk: nil)
        var previewSeconds: [Double] = []
        var random = SystemRandomNumberGenerator()
        note("cold listing, with a toggle and a preview every \(every) s")
        while complete == nil {
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
        return Cold(firstRows: firstRows ?? .infinity, complete: complete ?? .infinity, toggleSeconds: toggleSeconds, previewSeconds: previewSeconds)
    }

    /// From the catalogue: the time until the whole library is in the list, the RSS then, and the refresh.
    static func warm(server: PhotoPickServer, state: URL) async throws -> Warm {
        let clock = benchClock
        let started = clock.elapsed()
        let (session, client) = try session(server, state: state, refresh: .onStart)
        var browsable: Double?
        var refreshed: Double?
        session.onEvent = { event, state in
            switch event {
            case .report(.catalogue(.catalogueLoaded)): browsable = (clock.elapsed() - started).inSeconds
            case .report(.catalogue(.photosFinished)): refreshed = (clock.elapsed() - started).inSeconds
            default: break
            }
        }
        try session.start()
        while browsable == nil { try await benchClock.sleep(for: .milliseconds(1)) }
        let resident = Double((processStatusKilobytes("VmRSS") ?? 0) * 1024) / 1_000_000
        note("refreshing")
        while refreshed == nil { try await benchClock.sleep(for: .milliseconds(50)) }
        await session.stop()
        try await client.shutdown()
        return Warm(browsable: browsable ?? .infinity, residentMegabytes: resident, refresh: (refreshed ?? .infinity) - (browsable ?? 0))
    }
}
