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
            try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [kind] }) { _, api in
                let failed = try await api.get("/photos/1")
                #expect(failed.status == status)
                #expect(failed.header("Retry-After") == "1")
            }
        }
    }

    @Test func resetClosesTheConnectionBeforeAnyResponse() async throws {
        try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [.reset] }) { _, api in
            await #expect(throws: (any Error).self) { _ = try await api.get("/photos/1") }
        }
    }

    @Test func truncateCutsFileBodiesPartway() async throws {
        try await TestServer.with(photos: 5, { $0.faultRate = 1; $0.faults = [.truncate] }) { _, api in
            let location = try #require(try await api.get("/photos/1/download").header("Location"))
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
