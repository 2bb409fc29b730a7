import ArgumentParser
import Foundation
import PhotoPickKit
#if canImport(Glibc)
import Glibc
#endif

/// `decode`: the CPU `GET /photos` pages cost to decode into `Page<Photo>` through `JSONDecoder`, beside
/// Foundation's untyped `JSONSerialization` parse of the same bodies, as the embedded server writes them.
/// A hand-written fast path was measured here against `JSONDecoder` with a keyed `Photo` (commit
/// 12098fe): it saved 39% of the CPU, short of the half it needed to stay, and was removed.
struct DecodeBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode", abstract: "CPU to decode GET /photos pages with JSONDecoder, beside JSONSerialization's parse."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Photos in the library; the walk decodes all of them.")
    var photos = 100_000

    @Option(help: "Decodes of the one-page figure per round.")
    var repeats = 2_000

    func validate() throws {
        guard photos >= API.maximumPageSize else { throw ValidationError("--photos must be at least \(API.maximumPageSize): one full page") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
    }

    func run() async throws {
        note("starting a server with \(photos) photos")
        let server = try BenchServer.start(photos: photos, megapixels: 0.3)
        defer { server.stop() }
        note("fetching every page of a walk, \(API.maximumPageSize) photos a page")
        let pages = try await fetchWalk(server)
        note("\(pages.count) pages, \(pages.reduce(0) { $0 + $1.body.count } / 1024) KiB of JSON; checking that both read them alike")
        try checkAgreement(pages, expected: photos)

        let sample = [pages[0]], samplePhotos = pages[0].ids.count
        var single: [Contender: [Double]] = [:], walk: [Contender: [Double]] = [:]
        note("warming up")
        for contender in Contender.allCases { _ = try measure(contender, sample, times: 20, expect: 20 * samplePhotos) }
        for round in 1...options.rounds {
            // Each round starts with the other contender, so neither always runs on the warmest caches.
            let order = round % 2 == 0 ? Contender.allCases : Contender.allCases.reversed()
            note("round \(round) of \(options.rounds): one page \(repeats) times, then the \(pages.count)-page walk, each way")
            for contender in order {
                single[contender, default: []].append(try measure(contender, sample, times: repeats, expect: samplePhotos * repeats))
                walk[contender, default: []].append(try measure(contender, pages, times: 1, expect: photos))
            }
        }
        let onePage = median(single[.photoDecoder]!) / Double(repeats) * 1e6, parseOne = median(single[.untypedParse]!) / Double(repeats) * 1e6
        let wholeWalk = median(walk[.photoDecoder]!) * 1000, parseWalk = median(walk[.untypedParse]!) * 1000
        // A page may cost at most a twentieth of the 200 ms between requests at the default 300 a minute.
        Report.print([
            Figure(name: "decode CPU per page (1 page)", value: onePage, unit: "µs", reference: "JSONSerialization parse",
                   referenceValue: parseOne, ratio: onePage / parseOne, target: "<= 10,000 µs", met: onePage <= 10_000),
            Figure(name: "decode CPU, \(pages.count)-page walk", value: wholeWalk, unit: "ms", reference: "JSONSerialization parse",
                   referenceValue: parseWalk, ratio: wholeWalk / parseWalk, target: "<= 10 ms a page", met: wholeWalk / Double(pages.count) <= 10),
        ], json: options.json)
    }

    /// Every page of a walk, asked for as `PhotoStream` asks, kept as it came off the wire.
    private func fetchWalk(_ server: BenchServer) async throws -> [FetchedPage] {
        let client = server.client(concurrency: 1)
        do {
            var pages: [FetchedPage] = []
            var cursor: String?
            repeat {
                let response = try await client.perform(API.photos(limit: API.maximumPageSize, cursor: cursor))
                let body = Data(response.body.readableBytesView)
                let page = try JSONDecoder().decode(Page<Photo>.self, from: body)
                pages.append(FetchedPage(cursor: cursor, body: body, ids: page.data.map(\.id)))
                cursor = page.hasNextPage ? page.pagination.nextCursor : nil
                if pages.count > photos / API.maximumPageSize + 1 { throw BenchError("the walk goes on past \(pages.count) pages") }
            } while cursor != nil
            try await client.shutdown()
            return pages
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Fails unless both read every page alike: the same photos in the same order, and every photo once.
    /// (The walk itself followed each page's cursor to the next.)
    private func checkAgreement(_ pages: [FetchedPage], expected: Int) throws {
        var total = 0, lastID = 0
        for (index, page) in pages.enumerated() {
            let number = index + 1
            // The walk decoded each page once already; JSONSerialization must read the same photos.
            let parsed = try JSONSerialization.jsonObject(with: page.body) as? [String: Any]
            let ids = page.ids
            guard (parsed?["data"] as? [[String: Any]])?.compactMap({ $0["id"] as? Int }) == ids else {
                throw BenchError("page \(number): JSONDecoder and JSONSerialization disagree on the photos")
            }
            for id in ids {
                guard id > lastID else { throw BenchError("page \(number): photo \(id) comes after \(lastID)") }
                lastID = id
            }
            total += ids.count
        }
        guard total == expected else { throw BenchError("the walk has \(total) photos, the library \(expected)") }
    }

    /// Decodes `pages` `times` over with `contender`; the CPU seconds that took.
    private func measure(_ contender: Contender, _ pages: [FetchedPage], times: Int, expect: Int) throws -> Double {
        var sink = 0
        let start = processCPUSeconds()
        for _ in 0..<times {
            for page in pages { sink &+= try contender.decode(page) }
        }
        let seconds = processCPUSeconds() - start
        guard sink == expect else { throw BenchError("\(contender) counted \(sink), expected \(expect)") }
        return seconds
    }
}

/// The ways a page is decoded. Each returns the page's photo count, so nothing is optimised away.
private enum Contender: CaseIterable, CustomStringConvertible {
    /// What `API.photos` runs: `JSONDecoder` into `Page<Photo>`.
    case photoDecoder
    /// Foundation's untyped parse of the same bytes: the floor of reading the JSON at all.
    case untypedParse

    var description: String {
        switch self {
        case .photoDecoder: "JSONDecoder"
        case .untypedParse: "JSONSerialization"
        }
    }

    func decode(_ page: FetchedPage) throws -> Int {
        switch self {
        case .photoDecoder:
            return try JSONDecoder().decode(Page<Photo>.self, from: page.body).data.count
        case .untypedParse:
            let object = try JSONSerialization.jsonObject(with: page.body) as? [String: Any]
            return (object?["data"] as? [Any])?.count ?? 0
        }
    }
}

/// One `GET /photos` body as it came.
private struct FetchedPage {
    /// The cursor it was asked with; nil for the first page.
    let cursor: String?
    let body: Data
    /// The photos' ids, in order.
    let ids: [Int]
}

/// CPU seconds this process has used so far, over all its threads, user and system: not wall time, so
/// waiting and other processes do not count.
private func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}
