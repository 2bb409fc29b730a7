import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `fetchVariant`: a rendition into memory, for previews, with the same rules as every other call.
struct VariantTests {
    @Test func fetchesTheWebRenditionAsJPEGWithItsETag() async throws {
        let clientLog = LineLog()
        try await withKitServer(photos: 5, clientLog: clientLog) { server, client, log in
            let variant = try await client.fetchVariant(photoID: 3, size: .web)
            #expect(variant.bytes.prefix(3) == [0xFF, 0xD8, 0xFF])
            let etag = try #require(variant.etag)
            #expect(etag.hasPrefix("\""))
            // The same bytes a plain GET of the signed URL gives.
            let location = try await client.send(API.downloadLocation(id: 3, size: .web, format: .jpeg))
            let direct = try await APICaller.fetch(location.absoluteString)
            #expect(direct.body == variant.bytes)
            #expect(log.lines.filter { $0.hasPrefix("GET ") && $0.contains("/photos/3/download ") }.count == 2, "the call it made and the one above")
            #expect(clientLog.lines.contains { $0.contains("/photos/3/download?size=web&format=jpeg") })
        }
    }

    @Test func theKeyNeverReachesTheFilesOriginAndOnlyTheAPICallIsPaced() async throws {
        try await withKitServer(photos: 5, { $0.filesPort = 0 }) { server, client, _ in
            _ = try await client.fetchVariant(photoID: 1, size: .web)
            #expect(server.filesOrigin.requestCount == 1)
            #expect(server.filesOrigin.authorizationHeaderCount == 0)
        }
    }

    @Test func aMissingPhotoIsA404() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            await #expect {
                try await client.fetchVariant(photoID: 999, size: .web)
            } throws: { error in
                (error as? APIError)?.status == 404
            }
        }
    }

    @Test func transientFailuresAreRetried() async throws {
        try await withKitServer(photos: 5, { configuration in
            configuration.faultRate = 0.5
            configuration.faults = [.internalError, .unavailable]
        }) { _, client, log in
            for id in 1...5 {
                let variant = try await client.fetchVariant(photoID: id, size: .web)
                #expect(variant.bytes.suffix(2) == [0xFF, 0xD9])
            }
            #expect(log.lines.contains { $0.contains(" 500 ") || $0.contains(" 503 ") })
        }
    }

    /// Requests in a server log for `path` (`GET /api/v1/photos/3/download 302 1ms`).
    private func requests(_ log: LineLog, _ path: String) -> Int {
        log.lines.count { $0.hasPrefix("GET " + path) }
    }

    @Test func aSignedLinkIsReusedUntilItExpires() async throws {
        let clock = TestClock()
        try await withKitServer(photos: 5, { $0.signedURLLifetime = .seconds(300) }, clock: clock) { _, client, log in
            let first = try await client.fetchVariant(photoID: 3, size: .web)
            let again = try await client.fetchVariant(photoID: 3, size: .web)
            #expect(again.bytes == first.bytes)
            #expect(requests(log, "/api/v1/photos/3/download") == 1, "the second fetch went straight to the file")
            #expect(requests(log, "/files/3/web") == 2)
            // Another size is another link.
            _ = try await client.fetchVariant(photoID: 3, size: .fhd)
            #expect(requests(log, "/api/v1/photos/3/download") == 2)
            // Within the 30 s before its expiry the link is not used: a new one is asked for.
            clock.advance(by: .seconds(300 - 30 + 1))
            _ = try await client.fetchVariant(photoID: 3, size: .web)
            #expect(requests(log, "/api/v1/photos/3/download") == 3)
            #expect(requests(log, "/files/3/web") == 3, "no request spent on a link about to expire")
        }
    }

    @Test func aLinkRefusedAsExpiredIsForgottenAndAskedForAgain() async throws {
        // The server's clock runs ahead of the client's: a link the client still counts as good is refused.
        let clientClock = TestClock(), serverClock = TestClock()
        try await withKitServer(photos: 5, { $0.clock = serverClock }, clock: clientClock) { _, client, log in
            _ = try await client.fetchVariant(photoID: 2, size: .web)
            serverClock.advance(by: .seconds(301))
            let variant = try await client.fetchVariant(photoID: 2, size: .web)
            #expect(variant.bytes.suffix(2) == [0xFF, 0xD9])
            #expect(log.lines.filter { $0.hasPrefix("GET /files/2/web") }.map { $0.split(separator: " ")[2] } == ["200", "403", "200"])
            #expect(requests(log, "/api/v1/photos/2/download") == 2)
        }
    }
}
