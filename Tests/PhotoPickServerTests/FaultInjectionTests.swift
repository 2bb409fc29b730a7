import AsyncHTTPClient
import Foundation
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Seeded fault injection: each kind behaves as documented, and a seed replays the same faults.
struct FaultInjectionTests {
    private func statuses(seed: UInt64) async throws -> [Int] {
        try await TestServer.with(photos: 5, seed: seed, { $0.faultRate = 0.4; $0.faults = [.internalError, .unavailable, .rateLimited] }) { _, api in
            var statuses: [Int] = []
            for index in 0..<40 { statuses.append(try await api.get("/photos/\(index % 5 + 1)").status) }
            return statuses
        }
    }

    /// Fetches a walk's pages and the same download repeatedly; volatile query parts (cursors,
    /// signatures, expiry) must not change which requests fail.
    private func walkAndDownloadStatuses(seed: UInt64) async throws -> [Int] {
        try await TestServer.with(photos: 60, seed: seed, { $0.faultRate = 0.3; $0.faults = [.internalError, .truncate] }) { _, api in
            var statuses: [Int] = []
            var cursor: String?
            for _ in 0..<15 {
                let page = try await api.get("/photos?limit=4" + (cursor.map { "&cursor=\($0)" } ?? ""))
                statuses.append(page.status)
                if page.status == 200 { cursor = page.json["pagination"]["nextCursor"].string }
            }
            for _ in 0..<8 {
                let redirect = try await api.downloadRedirect(photo: 3)
                statuses.append(redirect.status)
                guard let location = redirect.header("Location") else { continue }
                do {
                    let file = try await APICaller.fetch(location)
                    statuses.append(file.status)
                } catch {
                    statuses.append(-1)
                }
            }
            return statuses
        }
    }

    @Test func walksAndDownloadsReplayTheSameFaultsForASeed() async throws {
        let first = try await walkAndDownloadStatuses(seed: 21)
        #expect(first == (try await walkAndDownloadStatuses(seed: 21)))
        #expect(first.contains(-1) || first.contains(500), "the rate is high enough to inject something")
    }

    @Test func theSameSeedReplaysTheSameFaults() async throws {
        let first = try await statuses(seed: 11)
        let again = try await statuses(seed: 11)
        let other = try await statuses(seed: 12)
        #expect(first == again)
        #expect(first != other)
        #expect(first.contains(200) && first.contains { $0 >= 429 })
    }

    @Test func injected500sAndThe503And429CarryWhatClientsNeed() async throws {
        try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [.internalError] }) { _, api in
            let failed = try await api.get("/photos/1")
            #expect(failed.status == 500)
            #expect(failed.errorCode == "internal_error")
            #expect(failed.header("X-Request-Id")?.isEmpty == false)
        }
        for (kind, status) in [(FaultKind.unavailable, 503), (.rateLimited, 429)] {
            try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [kind]; $0.faultRetryAfter = 1 }) { _, api in
                let failed = try await api.get("/photos/1")
                #expect(failed.status == status)
                #expect(failed.header("Retry-After") == "1")
            }
        }
    }

    @Test func resetClosesTheConnectionBeforeAnyResponse() async throws {
        try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [.reset] }) { (_, api) async throws in
            let clock = ContinuousClock()
            let started = clock.now
            await #expect {
                _ = try await api.get("/photos/1")
            } throws: { error in
                // A reset (ECONNRESET) or a close before the response: not a timeout or a refusal.
                let text = String(describing: error)
                return text.contains("reset") || text.contains("remoteConnectionClosed") || text.contains("Connection closed")
            }
            #expect(clock.now - started < .seconds(5))
        }
    }

    @Test func truncateCutsFileBodiesPartway() async throws {
        try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [.truncate] }) { _, api in
            let location = try #require(try await api.signedURL(photo: 1))
            #expect(try await api.get("/photos/1").status == 200, "truncate applies to file bodies only")
            var request = HTTPClientRequest(url: location)
            request.method = .GET
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status.code == 200)
            let declared = try #require(response.headers.first(name: "Content-Length").flatMap(Int.init))
            var received = 0
            await #expect(throws: (any Error).self) {
                for try await chunk in response.body { received += chunk.readableBytes }
            }
            #expect(received < declared)
            #expect(received > 0)
        }
    }

    @Test func slowStallsForTheConfiguredLatency() async throws {
        try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [.slow]; $0.latency = .milliseconds(300) }) { (_, api) async throws in
            let clock = ContinuousClock()
            let started = clock.now
            #expect(try await api.get("/photos/1").status == 200)
            #expect(clock.now - started >= .milliseconds(300))
        }
    }
}
