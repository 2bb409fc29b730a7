import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `POST /tags` is never blindly repeated, and an ambiguous failure never costs a duplicate or an error.
@Suite(.timeLimit(.minutes(1))) struct TagCreationTests {
    @Test func aConflictOnTheFirstTryIsARealConflict() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            await #expect(throws: APIError.self) { try await client.createTag(name: "Favourite") }
        }
    }

    @Test func aLostAnswerResolvesToTheTagItMade() async throws {
        // Seed 3 stalls the first POST /tags past the client's timeout, and lets the second through: one of the
        // two makes the tag, the other meets a 409. The stall is on a test clock, so it lasts until the test
        // moves the clock: the client's one-second timeout always ends it first.
        let clock = TestClock()
        try await withKitServer(photos: 5, seed: 3, { $0.faultRate = 0.5; $0.faults = [.slow]; $0.latency = .seconds(3) }, clock: clock) { server, _, log in
            defer { clock.runFree() }  // a listing request may stall too: end it, so the server can stop
            // Ten tries: a call answered late on a loaded machine is tried again, and draws faults again.
            var patient = RetryPolicy.immediate
            patient.maximumAttempts = 10
            let client = APIClient.forTesting(server, clock: clock, retryPolicy: patient, readTimeout: .seconds(1))
            let tag = try await client.createTag(name: "Ambiguous", color: "#123456")
            #expect(tag.name == "Ambiguous" && tag.color == "#123456")
            clock.advance(by: .seconds(3))  // the stalled POST goes on now, and is answered
            await log.waitUntil { lines in
                let posts = lines.filter { $0.hasPrefix("POST /api/v1/tags") }
                return posts.contains { $0.contains(" 201 ") } && posts.contains { $0.contains(" 409 ") }
            }
            let all = try await TagStream(client: client).reduce(into: [PhotoPickKit.Tag]()) { $0.append($1) }
            #expect(all.filter { $0.name == "Ambiguous" }.count == 1)
            try await client.shutdown()
        }
    }

    @Test func aRefusedCreateBeforeProcessingIsRetried() async throws {
        try await withKitServer(photos: 5, { $0.faultRate = 0.5; $0.faults = [.reset, .internalError] }) { _, client, log in
            for index in 1...6 { _ = try await client.createTag(name: "Retried \(index)") }
            let all = try await TagStream(client: client).reduce(into: [String]()) { $0.append($1.name) }
            #expect(all.filter { $0.hasPrefix("Retried ") }.count == 6)
            #expect(log.requests("POST /api/v1/tags").count > 6)
        }
    }
}
