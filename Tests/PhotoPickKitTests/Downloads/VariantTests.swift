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
}
