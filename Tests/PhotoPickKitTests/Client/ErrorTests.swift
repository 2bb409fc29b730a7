import Foundation
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Every error code of the contract arrives as a typed `APIError` with a message that says what to do.
struct ErrorTests {
    private func failure<Response>(_ client: APIClient, _ request: Request<Response>) async -> APIError? {
        do {
            _ = try await client.send(request)
            return nil
        } catch {
            return error
        }
    }

    @Test func validationFailedListsTheField() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let error = try #require(await failure(client, API.photos(limit: 0)))
            #expect(error.status == 400 && error.code == .validationFailed)
            #expect(error.userMessage.contains("limit"))
            #expect(error.requestID?.isEmpty == false)
        }
    }

    @Test func unauthorizedSaysWhereKeysAreMade() async throws {
        try await withKitServer(photos: 5) { server, _, _ in
            let client = APIClient.forTesting(server, key: "pp_test_nosuchkey")
            let error = try #require(await failure(client, API.me()))
            #expect(error.code == .unauthorized && error.status == 401)
            #expect(error.userMessage.contains("Settings → API keys"))
            try await client.shutdown()
        }
    }

    @Test func scopeRequiredNamesTheScope() async throws {
        let readOnly = try KeySpec(parsing: "pp_test_readonly=photos:read")
        try await withKitServer(photos: 5, { $0.keys = [try! KeySpec(parsing: "pp_test_full"), readOnly] }) { server, _, _ in
            let client = APIClient.forTesting(server, key: readOnly.key)
            let error = try #require(await failure(client, API.replacePhotoTags(id: 1, tagIDs: [])))
            #expect(error.code == .scopeRequired && error.status == 403)
            #expect(error.userMessage == "This API key lacks the photos:write scope; make a key with it in Settings → API keys.")
            try await client.shutdown()
        }
    }

    @Test func ipNotWhitelisted() async throws {
        let locked = try KeySpec(parsing: "pp_test_locked@10.9.8.7")
        try await withKitServer(photos: 5, { $0.keys = [locked] }) { server, _, _ in
            let client = APIClient.forTesting(server, key: locked.key)
            let error = try #require(await failure(client, API.me()))
            #expect(error.code == .ipNotWhitelisted)
            #expect(error.userMessage.contains("allow-list"))
            try await client.shutdown()
        }
    }

    @Test func tariffNotSupportedIsNeverRetried() async throws {
        try await withKitServer(photos: 5) { _, client, log in
            let error = try #require(await failure(client, API.downloadLocation(id: 1, format: .webp)))
            #expect(error.code == .tariffNotSupported && error.status == 403)
            #expect(error.userMessage.contains("plan does not include"))
            #expect(log.requests("GET /api/v1/photos/1/download").count == 1)
        }
    }

    @Test func notFoundConflictAndPayloadTooLarge() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            #expect(await failure(client, API.photo(id: 999))?.code == .notFound)
            let conflict = try #require(await failure(client, API.createTag(name: "favourite")))
            #expect(conflict.code == .conflict && conflict.status == 409)
            let huge = String(repeating: "x", count: 70_000)
            let tooLarge = try #require(await failure(client, API.updatePhoto(id: 1, PhotoUpdate(description: huge))))
            #expect(tooLarge.code == .payloadTooLarge && tooLarge.status == 413)
        }
    }

    @Test func rateLimitedAfterRetriesRunOut() async throws {
        // On a test clock: windows start at whole minutes of the real one, and a slow run could see the
        // second request in the next window (it did, once in CI).
        try await withKitServer(photos: 5, { $0.rateLimit = 1; $0.rateLimitWindow = 60 }, retryPolicy: .never, clock: TestClock()) { server, client, _ in
            // Spent behind the client's back: its pacer cannot know, so the call meets the 429.
            _ = try await APICaller(server: server).get("/me")
            let error = try #require(await failure(client, API.me()))
            #expect(error.code == .rateLimited && error.status == 429)
        }
    }

    @Test func internalErrorQuotesTheRequestID() async throws {
        try await withKitServer(photos: 5, { $0.faultRate = 1; $0.faults = [.internalError] }, retryPolicy: .never) { _, client, _ in
            let error = try #require(await failure(client, API.photo(id: 1)))
            #expect(error.code == .internalError && error.status == 500)
            let requestID = try #require(error.requestID)
            #expect(error.userMessage.contains(requestID))
        }
    }

    @Test func unknownCodesKeepTheirCodeAndMessage() async throws {
        try await withKitServer(photos: 5) { server, _, _ in
            // The retired v0 answers 410 with a code this client has no name for.
            let retiredURL = URL(string: server.baseURL.absoluteString.replacingOccurrences(of: "/api/v1", with: "/api/v0"))!
            let retired = APIClient(configuration: .init(baseURL: retiredURL, apiKey: .fixed(APIKey(server.demoKey)), clock: .continuous, retryPolicy: .never))
            let error = try #require(await failure(retired, API.me()))
            let expected = try await APICaller(server: server).get(retiredURL.absoluteString + "/me")
            #expect(error.status == 410)
            #expect(error.code?.rawValue == expected.errorCode)
            #expect(error.userMessage.contains("410"))
            try await retired.shutdown()
        }
    }

    @Test func aRefusedConnectionIsATransportErrorAtOnce() async throws {
        let server = try await TestServer.start(photos: 1)
        let log = LineLog()
        let client = APIClient.forTesting(server, log: log)
        await server.stop()
        let error = try #require(await failure(client, API.me()))
        guard case .transport(_, let reason) = error else { Issue.record("got \(error)"); return }
        #expect(reason == "connection refused")
        // At once: one try, not retried until a deadline, since nothing listens.
        #expect(log.lines.count { $0.contains("failed: ") } == 1, "\(log.lines)")
        #expect(error.userMessage.contains("check the network connection"))
        try await client.shutdown()
    }

    @Test func cancellationIsItsOwnCase() async throws {
        let clock = TestClock()  // the stall lasts until the test ends it
        try await withKitServer(photos: 5, { $0.faultRate = 1; $0.faults = [.slow]; $0.latency = .seconds(5) }, clock: clock) { _, client, _ async throws in
            let task = Task { try await client.send(API.me()) }
            await clock.sleepers(atLeast: 1)  // the request reached the stall
            task.cancel()
            defer { clock.runFree() }  // ends the stall, so the server can stop
            let result = await task.result
            guard case .failure(let error as APIError) = result, case .cancelled = error else {
                Issue.record("expected cancellation, got \(result)")
                return
            }
        }
    }
}

/// Every code's message, without a server: one line, saying what to do.
struct ErrorMessageTests {
    @Test(arguments: [
        APIError.Code.validationFailed, .invalidCursor, .unauthorized, .scopeRequired, .ipNotWhitelisted, .tariffNotSupported,
        .notFound, .conflict, .payloadTooLarge, .unsupportedMedia, .rateLimited, .internalError, .urlExpired, "brand_new_code",
    ])
    func everyCodeHasOneLineThatSaysWhatToDo(code: APIError.Code) {
        let response = ErrorResponse(status: 400, code: code, message: "Bad\nthing\u{1B}[31m", details: nil, requestID: "req_1")
        let message = response.userMessage
        #expect(!message.isEmpty)
        #expect(!message.unicodeScalars.contains { $0.properties.generalCategory == .control }, "\(message)")
        #expect(message.contains(";") || message.hasSuffix("."), "\(message)")
    }

    @Test func unsupportedMediaIsReportedAsABugWithItsRequestID() {
        let response = ErrorResponse(status: 415, code: .unsupportedMedia, message: "Use application/json", details: nil, requestID: "req_42")
        #expect(response.userMessage.contains("photopick bug") && response.userMessage.contains("req_42"))
    }
}
