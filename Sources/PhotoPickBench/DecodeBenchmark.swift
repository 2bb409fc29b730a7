import ArgumentParser
import Foundation
import PhotoPickKit
#if canImport(Glibc)
import Glibc
#endif

/// `decode`: the CPU the hand-written `GET /photos` fast path (`PaginationScanner` + `PhotoPageDecoder`,
/// as `PageStream` runs them) spends against Foundation's `JSONDecoder` on the same bodies, as the
/// embedded server writes them. The fast path earns its place only at half the CPU or less.
struct DecodeBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode", abstract: "CPU to decode GET /photos pages: the hand-written fast path against JSONDecoder."
    )

    @OptionGroup var options: BenchOptions

    @Option(help: "Photos in the library; the walk decodes all of them.")
    var photos = 100_000

    @Option(help: "Decodes of the one-page figure per round.")
    var repeats = 2_000

    func validate() throws {
        guard photos >= API.maximumPageSize else { throw ValidationError("--photos must be at least \(API.maximumPageSize): one full page") }
        guard repeats >= 1 else { throw ValidationError("--repeats must be at least 1") }
        guard options.rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
    }

    func run() async throws {
        note("starting a server with \(photos) photos")
        let server = try BenchServer.start(photos: photos, megapixels: 0.3)
        defer { server.stop() }
        note("fetching every page of a walk, \(API.maximumPageSize) photos a page")
        let pages = try await fetchWalk(server)
        let bytes = pages.reduce(0) { $0 + $1.body.count }
        note("\(pages.count) pages, \(bytes / 1024) KiB of JSON; checking that the decoders agree")
        try checkAgreement(pages, expected: photos)

        let sample = [pages[0]]
        let walkPhotos = photos, samplePhotos = API.maximumPageSize
        var single: [Contender: [Double]] = [:], walk: [Contender: [Double]] = [:]
        note("warming up")
        for contender in Contender.allCases {
            _ = try measure(contender, sample, times: 20, expect: contender.expected(photos: 20 * samplePhotos, pages: 20))
        }
        for round in 1...options.rounds {
            // Each round starts with another contender, so none always runs on the warmest caches.
            let order = Contender.allCases.indices.map { Contender.allCases[($0 + round) % Contender.allCases.count] }
            note("round \(round) of \(options.rounds): one page \(repeats) times, then the \(pages.count)-page walk, each way")
            for contender in order {
                single[contender, default: []].append(
                    try measure(contender, sample, times: repeats, expect: contender.expected(photos: samplePhotos * repeats, pages: repeats))
                )
            }
            for contender in order {
                walk[contender, default: []].append(
                    try measure(contender, pages, times: 1, expect: contender.expected(photos: walkPhotos, pages: pages.count))
                )
            }
        }

        func perPage(_ contender: Contender) -> Double { median(single[contender]!) / Double(repeats) * 1e6 }
        func walkTotal(_ contender: Contender) -> Double { median(walk[contender]!) * 1000 }
        let fastOne = perPage(.fastPath), foundationOne = perPage(.jsonDecoder), keyedOne = perPage(.keyedJSONDecoder)
        let fastWalk = walkTotal(.fastPath), foundationWalk = walkTotal(.jsonDecoder), keyedWalk = walkTotal(.keyedJSONDecoder)
        let scanner = perPage(.scannerOnly)
        let target = "fast path <= 0.5x JSONDecoder CPU"
        Report.print([
            Figure(name: "decode CPU per page (1 page)", value: fastOne, unit: "µs", reference: "JSONDecoder Page<Photo>",
                   referenceValue: foundationOne, ratio: fastOne / foundationOne, target: target, met: fastOne / foundationOne <= 0.5),
            Figure(name: "decode CPU, \(pages.count)-page walk", value: fastWalk, unit: "ms", reference: "JSONDecoder Page<Photo>",
                   referenceValue: foundationWalk, ratio: fastWalk / foundationWalk, target: target, met: fastWalk / foundationWalk <= 0.5),
            // Reported only: Photo's own init(from:) reads a JSONValue tree by trial and error; a keyed
            // container is what JSONDecoder would cost if the fast path went and Photo were decoded directly.
            Figure(name: "per page vs keyed Decodable", value: fastOne, unit: "µs", reference: "JSONDecoder, keyed Photo",
                   referenceValue: keyedOne, ratio: fastOne / keyedOne, target: "report", met: true),
            Figure(name: "walk vs keyed Decodable", value: fastWalk, unit: "ms", reference: "JSONDecoder, keyed Photo",
                   referenceValue: keyedWalk, ratio: fastWalk / keyedWalk, target: "report", met: true),
            // Reported only: PageStream's early read of `pagination`, already inside the fast path's figures.
            Figure(name: "PaginationScanner per page", value: scanner, unit: "µs", reference: "fast path per page (µs)",
                   referenceValue: fastOne, ratio: scanner / fastOne, target: "report", met: true),
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
                pages.append(FetchedPage(cursor: cursor, response: response, body: body))
                // The cursor is read by neither contender, so the pages fetched do not depend on the code measured.
                let pagination = try JSONDecoder().decode(PaginationOfPage.self, from: body).pagination
                cursor = pagination.hasMore ? pagination.nextCursor : nil
                if pages.count > photos / API.maximumPageSize + 1 { throw BenchError("the walk goes on past \(pages.count) pages") }
            } while cursor != nil
            try await client.shutdown()
            return pages
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Fails unless every contender reads every page alike: the same photos in the same order, the same
    /// `pagination`, each page's cursor leading to the page fetched after it, and every photo once.
    private func checkAgreement(_ pages: [FetchedPage], expected: Int) throws {
        var total = 0, lastID = 0
        var differing = 0, differingKeyed = 0, firstDifferent: Int?
        for (index, page) in pages.enumerated() {
            let number = index + 1
            let fast = try PhotoPageDecoder.decode(page.response)
            let foundation = try JSONDecoder().decode(Page<Photo>.self, from: page.body)
            let keyed = try JSONDecoder().decode(KeyedPage.self, from: page.body)
            let scanned = PaginationScanner.pagination(in: page.response.body)
            guard fast.pagination == foundation.pagination, keyed.pagination == foundation.pagination else {
                throw BenchError("page \(number): the fast path read \(fast.pagination), JSONDecoder \(foundation.pagination), the keyed decoder \(keyed.pagination)")
            }
            guard scanned == foundation.pagination else {
                throw BenchError("page \(number): PaginationScanner read \(String(describing: scanned)), the page says \(foundation.pagination)")
            }
            let ids = foundation.data.map(\.id)
            guard fast.data.map(\.id) == ids, keyed.data.map(\.photo.id) == ids else {
                throw BenchError("page \(number): the decoders disagree on the photos' ids or their count (\(fast.data.count), \(ids.count), \(keyed.data.count))")
            }
            for id in ids {
                guard id > lastID else { throw BenchError("page \(number): photo \(id) comes after \(lastID)") }
                lastID = id
            }
            if number < pages.count {
                guard foundation.hasNextPage, pages[number].cursor == foundation.pagination.nextCursor else {
                    throw BenchError("page \(number)'s cursor does not lead to the page fetched after it")
                }
            } else if foundation.hasNextPage {
                throw BenchError("the last page fetched says more follow")
            }
            for (ours, theirs) in zip(fast.data, foundation.data) where ours != theirs {
                differing += 1
                firstDifferent = firstDifferent ?? ours.id
            }
            differingKeyed += zip(keyed.data, foundation.data).filter { $0.photo != $1 }.count
            total += ids.count
        }
        guard total == expected else { throw BenchError("the walk has \(total) photos, the library \(expected)") }
        if differing > 0 {
            note("WARNING: \(differing) photos decode differently with the fast path and with JSONDecoder, the first is photo \(firstDifferent!)")
        }
        if differingKeyed > 0 {
            note("note: \(differingKeyed) photos decode differently with the keyed decoder (it keeps no unknown fields)")
        }
    }

    /// Decodes `pages` `times` over with `contender`; the CPU seconds that took.
    private func measure(_ contender: Contender, _ pages: [FetchedPage], times: Int, expect: Int) throws -> Double {
        var sink = 0
        let seconds = try cpuTime {
            for _ in 0..<times {
                for page in pages { sink &+= try contender.decode(page) }
            }
        }
        guard sink == expect else { throw BenchError("\(contender) counted \(sink), expected \(expect)") }
        return seconds
    }
}

/// The ways a page is decoded. Each returns the page's photo count (the scanner: 1), so nothing is optimised away.
private enum Contender: CaseIterable, CustomStringConvertible {
    /// What `PageStream` runs per page of photos: the scanner's early read, then `PhotoPageDecoder`.
    case fastPath
    /// What `API.photos` would run without the fast path: `Photo`'s own `init(from:)`.
    case jsonDecoder
    /// `JSONDecoder` with a keyed-container photo (see `KeyedPhoto`), for reference.
    case keyedJSONDecoder
    /// `PaginationScanner` alone.
    case scannerOnly

    var description: String {
        switch self {
        case .fastPath: "the fast path"
        case .jsonDecoder: "JSONDecoder"
        case .keyedJSONDecoder: "the keyed JSONDecoder"
        case .scannerOnly: "PaginationScanner"
        }
    }

    func decode(_ page: FetchedPage) throws -> Int {
        switch self {
        case .fastPath:
            guard PaginationScanner.pagination(in: page.response.body) != nil else {
                // PageStream would fall back to JSONDecoder on the whole body: not what this figure is about.
                throw BenchError("PaginationScanner found no pagination in a page")
            }
            return try PhotoPageDecoder.decode(page.response).data.count
        case .jsonDecoder:
            return try JSONDecoder().decode(Page<Photo>.self, from: page.body).data.count
        case .keyedJSONDecoder:
            return try JSONDecoder().decode(KeyedPage.self, from: page.body).data.count
        case .scannerOnly:
            guard PaginationScanner.pagination(in: page.response.body) != nil else {
                throw BenchError("PaginationScanner found no pagination in a page")
            }
            return 1
        }
    }

    /// What `decode` adds up to over pages holding `photos` photos.
    func expected(photos: Int, pages: Int) -> Int {
        self == .scannerOnly ? pages : photos
    }
}

/// One `GET /photos` answer as it came, with its body again as `Data` for `JSONDecoder`.
private struct FetchedPage {
    /// The cursor it was asked with; nil for the first page.
    let cursor: String?
    let response: RawResponse
    let body: Data
}

/// A page's `pagination`, to follow the walk.
private struct PaginationOfPage: Decodable {
    let pagination: Pagination
}

/// A page of `KeyedPhoto`s.
private struct KeyedPage: Decodable {
    let data: [KeyedPhoto]
    let pagination: Pagination
}

/// A photo read through a keyed container, the usual way to write `init(from:)`: what `JSONDecoder` costs
/// when it is not also building a `JSONValue` tree by trial and error, as `Photo.init(from:)` does.
/// Unlike `Photo`, it keeps no unknown fields (ours sends none) and is strict about our optional ones.
private struct KeyedPhoto: Decodable {
    let photo: Photo

    private enum Key: String, CodingKey {
        case id, filename, bytes, takenAt, tagIds, width, height, mimeType, createdAt, camera, lens, exposure, location
        case title, description
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var photo = Photo(
            id: try container.decode(Int.self, forKey: .id),
            filename: try container.decode(String.self, forKey: .filename),
            bytes: try container.decode(Int64.self, forKey: .bytes),
            takenAt: try Self.date(.takenAt, in: container),
            tagIDs: try container.decode([Int].self, forKey: .tagIds)
        )
        photo.width = try container.decodeIfPresent(Int.self, forKey: .width)
        photo.height = try container.decodeIfPresent(Int.self, forKey: .height)
        photo.mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType)
        photo.createdAt = try Self.date(.createdAt, in: container)
        photo.camera = try container.decodeIfPresent(Photo.Camera.self, forKey: .camera)
        photo.lens = try container.decodeIfPresent(String.self, forKey: .lens)
        photo.exposure = try container.decodeIfPresent(Photo.Exposure.self, forKey: .exposure)
        photo.location = try container.decodeIfPresent(Photo.Location.self, forKey: .location)
        photo.title = try container.decodeIfPresent(String.self, forKey: .title)
        photo.description = try container.decodeIfPresent(String.self, forKey: .description)
        self.photo = photo
    }

    /// A date-time or null, parsed as PhotoPickKit parses it.
    private static func date(_ key: Key, in container: KeyedDecodingContainer<Key>) throws -> Date? {
        guard let text = try container.decodeIfPresent(String.self, forKey: key) else { return nil }
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "not an ISO 8601 date-time: \(text)")
        }
        return date
    }
}

/// CPU seconds this process has used so far, over all its threads, user and system.
private func processCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// The CPU seconds `work` costs (not wall time: waiting and other processes do not count).
private func cpuTime(_ work: () throws -> Void) rethrows -> Double {
    let start = processCPUSeconds()
    try work()
    return processCPUSeconds() - start
}
