import Foundation
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// The key never appears in a log line, an error or a description.
struct RedactionTests {
    @Test func noLogLineErrorOrDescriptionContainsTheKey() async throws {
        let clientLog = LineLog()
        try await withKitServer(photos: 5, { $0.faultRate = 0.3; $0.faults = [.internalError, .reset] }, clientLog: clientLog) { server, client, _ in
            let key = server.demoKey
            var texts: [String] = []
            _ = try await client.send(API.me())
            do { _ = try await client.send(API.photo(id: 999)) } catch let error as APIError { texts += [error.userMessage, "\(error)", String(reflecting: error)] }
            do { _ = try await client.send(API.photos(limit: 0)) } catch let error as APIError { texts += [error.userMessage, String(reflecting: error)] }
            do { _ = try await client.send(API.downloadLocation(id: 1, format: .webp)) } catch let error as APIError { texts.append(error.userMessage) }
            _ = try await client.download(photo: try await client.send(API.photo(id: 1)), into: makeDownloadDirectory())
            texts.append(API.updateTag(id: 1, TagUpdate(name: "x")).curlDescription(baseURL: server.baseURL))
            texts.append("\(APIKey(key))")
            texts.append(String(reflecting: APIKey(key)))
            #expect(!clientLog.lines.isEmpty)
            for text in clientLog.lines + texts { #expect(!text.contains(key), "\(text)") }
            #expect(clientLog.lines.contains { $0.contains("/files/") && $0.contains("signature=REDACTED") })
        }
    }

    @Test func signedQueryParametersAreRedacted() {
        let url = URL(string: "https://cdn.example/files/1?expires=99&signature=abc&X-Amz-Signature=def&size=web")!
        #expect(Redaction.url(url) == "https://cdn.example/files/1?expires=99&signature=REDACTED&X-Amz-Signature=REDACTED&size=web")
    }
}
