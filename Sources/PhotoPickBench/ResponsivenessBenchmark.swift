import ArgumentParser
import Foundation
import NIOConcurrencyHelpers
import PhotoPickKit
import PhotoPickServer

/// `responsiveness`: how late the main actor and the cooperative pool answer while the embedded server,
/// in the same process as the browser, renders originals for the loupe. A key is answered on the main
/// actor, and the work it starts runs on the pool; a render holding either stalls the screen.
struct ResponsivenessBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "responsiveness", abstract: "Main-actor and cooperative-pool latency while the in-process server renders originals."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Originals rendered at once, as compare's loupe asks for.")
    var originals = 4

    @Option(help: "Size of each original.")
    var megapixels = 12.0

    func run() async throws {
        var main: [Double] = [], pool: [Double] = [], renders: [Double] = []
        for round in 1...options.rounds {
            note("round \(round) of \(options.rounds): \(originals) originals of \(megapixels) MP rendered in-process")
            let run = try await Self.measure(originals: originals, megapixels: megapixels)
            main.append(run.mainWorst * 1000)
            pool.append(run.poolWorst * 1000)
            renders.append(run.seconds)
            note("renders \(String(format: "%.2f", run.seconds)) s; worst main-actor wake-up \(String(format: "%.1f", run.mainWorst * 1000)) ms, pool \(String(format: "%.1f", run.poolWorst * 1000)) ms over \(run.samples) samples")
        }
        Report.print([
            .within(50, "main actor late, worst", median(main), unit: "ms"),
            .within(50, "pool task late, worst", median(pool), unit: "ms"),
            Figure(name: "\(originals) originals rendered", value: median(renders), unit: "s", reference: "none", referenceValue: 0,
                   ratio: 0, target: "measured", met: true),
        ], json: options.json)
    }

    /// One round: a fresh library, its originals fetched at once, and meanwhile a 10 ms tick on the main
    /// actor and a task hopping onto the pool and back, each timed against when it should have run.
    @MainActor
    static func measure(originals: Int, megapixels: Double) async throws -> (seconds: Double, mainWorst: Double, poolWorst: Double, samples: Int) {
        let scratch = try scratchDirectory("responsiveness")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let server = try await PhotoPickServer.start(ServerConfiguration(
            port: 0, dataDirectory: scratch, photoCount: max(originals, 8), rateLimit: 100_000, originalMegapixels: megapixels
        ))
        let client = benchClient(server.baseURL, apiKey: .fixed(APIKey(server.demoKey)), concurrency: originals)
        let done = NIOLockedValueBox(false)
        let start = benchClock.elapsed()
        let fetches = Task.detached {
            defer { done.withLockedValue { $0 = true } }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for id in 1...originals {
                    group.addTask { _ = try await client.fetchVariant(photoID: id, size: .original) }
                }
                try await group.waitForAll()
            }
        }
        var mainWorst = Duration.zero, poolWorst = Duration.zero, samples = 0
        let tick = Duration.milliseconds(10)
        while !done.withLockedValue({ $0 }) {
            let asleep = benchClock.elapsed()
            try await benchClock.sleep(for: tick)
            mainWorst = max(mainWorst, benchClock.elapsed() - asleep - tick)
            let hop = benchClock.elapsed()
            await Task.detached {}.value
            poolWorst = max(poolWorst, benchClock.elapsed() - hop)
            samples += 1
        }
        try await fetches.value
        let seconds = (benchClock.elapsed() - start).inSeconds
        try await client.shutdown()
        await server.stop()
        return (seconds, mainWorst.inSeconds, poolWorst.inSeconds, samples)
    }
}
