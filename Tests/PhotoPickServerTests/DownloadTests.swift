import CJPEG
import Crypto
import Foundation
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `/photos/{id}/download` and the file origin it redirects to.
struct DownloadTests {
    /// Follows the download redirect by hand, without the key, as a careful client does.
    private func signedURL(_ api: APICaller, _ query: String = "") async throws -> String {
        let redirect = try await api.downloadRedirect(photo: 1, query: query)
        #expect(redirect.status == 302)
        #expect(redirect.header("X-RateLimit-Remaining") != nil)
        return try #require(redirect.header("Location"))
    }

    @Test func originalsHaveExactlyTheAdvertisedBytesAndDigest() async throws {
        try await TestServer.with(photos: 20) { _, api in
            let photo = try await api.get("/photos/1").json
            let file = try await APICaller.fetch(try await signedURL(api))
            #expect(file.status == 200)
            #expect(file.body.count == photo["bytes"].int)
            #expect(file.header("Content-Length") == String(file.body.count))
            #expect(file.header("Content-Type") == photo["mimeType"].string)
            #expect(file.header("Accept-Ranges") == "bytes")
            #expect(file.header("ETag")?.hasPrefix("\"") == true)
            #expect(file.header("Last-Modified")?.hasSuffix("GMT") == true)
            let digest = "sha-256=:" + Data(SHA256.hash(data: file.body)).base64EncodedString() + ":"
            #expect(file.header("Repr-Digest") == digest)
            #expect(file.header("Content-Disposition")?.hasPrefix("attachment; filename=") == true)
            if photo["mimeType"].string == "image/jpeg" {
                let size = try #require(JPEG.size(of: file.body))
                #expect(size.width == photo["width"].int && size.height == photo["height"].int)
            }
        }
    }

    /// A HEIC, a DNG and a PNG original come as themselves: their own type, the bytes their metadata
    /// gives and their own magic; `format=jpeg` turns one into a JPEG of its size, named `.jpg`.
    @Test func originalsOfEveryKindComeAsThemselvesOrAsJPEG() async throws {
        try await TestServer.with(photos: 1500, { $0.originalMegapixels = 0.02 }) { _, api in
            var photos: [JSON] = []
            var cursor: String?
            repeat {
                let page = try await api.get("/photos?limit=100" + (cursor.map { "&cursor=" + $0 } ?? "")).json
                photos += page["data"].array
                cursor = page["pagination"]["nextCursor"].string
            } while cursor != nil
            let magic: [String: [UInt8]] = [
                "image/jpeg": [0xFF, 0xD8, 0xFF], "image/png": [0x89, 0x50, 0x4E, 0x47],
                "image/x-adobe-dng": [0x49, 0x49, 0x2A, 0x00], "image/heic": Array("ftypheic".utf8),
            ]
            for (mimeType, start) in magic {
                let photo = try #require(photos.first { $0["mimeType"].string == mimeType }, "a \(mimeType) among \(photos.count)")
                let id = try #require(photo["id"].int)
                let location = try #require(try await api.signedURL(photo: id))
                let file = try await APICaller.fetch(location)
                #expect(file.status == 200 && file.header("Content-Type") == mimeType)
                #expect(file.body.count == photo["bytes"].int, "\(mimeType) weighs what its metadata says")
                let head = mimeType == "image/heic" ? Array(file.body[4..<12]) : Array(file.body.prefix(start.count))
                #expect(head == start, "\(mimeType)'s own magic")
                #expect(file.header("Content-Disposition")?.contains(photo["filename"].string ?? "?") == true)
                guard mimeType != "image/jpeg" else { continue }
                let asJPEG = try await APICaller.fetch(try #require(try await api.signedURL(photo: id, query: "?format=jpeg")))
                #expect(asJPEG.header("Content-Type") == "image/jpeg")
                let size = try #require(JPEG.size(of: asJPEG.body), "\(mimeType) as JPEG")
                #expect(size.width == photo["width"].int && size.height == photo["height"].int)
                let stem = (photo["filename"].string ?? "").split(separator: ".").dropLast().joined(separator: ".")
                #expect(asJPEG.header("Content-Disposition")?.contains(stem + ".jpg") == true)
            }
        }
    }

    @Test func variantsAreRealDownscaledJPEGs() async throws {
        // 4 MP: a long edge past fhd's 1920 and short of a4's 3508.
        try await TestServer.with(photos: 5, { $0.originalMegapixels = 4 }) { _, api in
            let photo = try await api.get("/photos/1").json
            let long = max(photo["width"].int ?? 0, photo["height"].int ?? 0)
            for (size, bound) in [("web", 1024), ("fhd", 1920)] {
                let file = try await APICaller.fetch(try await signedURL(api, "?size=\(size)&format=jpeg"))
                #expect(file.status == 200)
                let pixels = try #require(JPEG.size(of: file.body))
                #expect(max(pixels.width, pixels.height) == min(bound, long), "\(size)")
                #expect(file.header("Content-Disposition")?.contains("-\(size).jpg") == true)
            }
            let a4 = try #require(JPEG.size(of: try await APICaller.fetch(try await signedURL(api, "?size=a4")).body))
            #expect(max(a4.width, a4.height) == long, "never upscaled")
        }
    }

    @Test func rangesAnswer206WithContentRange() async throws {
        try await TestServer.with(photos: 5) { _, api in
            let url = try await signedURL(api)
            let whole = try await APICaller.fetch(url)
            let length = whole.body.count
            let middle = try await APICaller.fetch(url, headers: [("Range", "bytes=100-199")])
            #expect(middle.status == 206)
            #expect(middle.header("Content-Range") == "bytes 100-199/\(length)")
            #expect(middle.body == Array(whole.body[100...199]))
            let suffix = try await APICaller.fetch(url, headers: [("Range", "bytes=-50")])
            #expect(suffix.body == Array(whole.body.suffix(50)))
            let open = try await APICaller.fetch(url, headers: [("Range", "bytes=\(length - 10)-")])
            #expect(open.header("Content-Range") == "bytes \(length - 10)-\(length - 1)/\(length)")
            #expect(open.body.count == 10)
        }
    }

    @Test func ifRangeWithAStaleValidatorSendsTheWholeFile() async throws {
        try await TestServer.with(photos: 5) { _, api in
            let url = try await signedURL(api)
            let whole = try await APICaller.fetch(url)
            let etag = try #require(whole.header("ETag"))
            let lastModified = try #require(whole.header("Last-Modified"))
            let stale = try await APICaller.fetch(url, headers: [("Range", "bytes=10-"), ("If-Range", "\"stale\"")])
            #expect(stale.status == 200)
            #expect(stale.body == whole.body)
            let fresh = try await APICaller.fetch(url, headers: [("Range", "bytes=10-"), ("If-Range", etag)])
            #expect(fresh.status == 206)
            #expect(fresh.body == Array(whole.body.dropFirst(10)))
            let byDate = try await APICaller.fetch(url, headers: [("Range", "bytes=10-"), ("If-Range", lastModified)])
            #expect(byDate.status == 206)
        }
    }

    @Test func aRangePastTheEndIs416() async throws {
        try await TestServer.with(photos: 5) { _, api in
            let url = try await signedURL(api)
            let length = try await APICaller.fetch(url).body.count
            let refused = try await APICaller.fetch(url, headers: [("Range", "bytes=\(length)-")])
            #expect(refused.status == 416)
            #expect(refused.header("Content-Range") == "bytes */\(length)")
            #expect(refused.errorCode == "range_not_satisfiable")
        }
    }

    @Test func expiredAndTamperedSignaturesAre403() async throws {
        try await TestServer.with(photos: 5, { $0.signedURLLifetime = .zero }) { _, api in
            let expired = try await APICaller.fetch(try await signedURL(api))
            #expect(expired.status == 403)
            #expect(expired.errorCode == "url_expired")
        }
        try await TestServer.with(photos: 5) { _, api in
            let url = try await signedURL(api)
            let tampered = url.replacingOccurrences(of: "/files/1/", with: "/files/2/")
            #expect(try await APICaller.fetch(tampered).errorCode == "invalid_signature")
            let later = url.replacingOccurrences(of: "expires=", with: "expires=9")
            #expect(try await APICaller.fetch(later).errorCode == "invalid_signature")
        }
    }

    @Test func aSecondOriginServesFilesAndRecordsAuthorizationHeaders() async throws {
        try await TestServer.with(photos: 5, { $0.filesPort = 0 }) { server, api in
            let url = try await signedURL(api)
            let filesPort = try #require(server.filesPort)
            #expect(filesPort != server.port)
            #expect(url.hasPrefix("http://127.0.0.1:\(filesPort)/files/1/original?"))
            #expect(try await APICaller.fetch(url).status == 200)
            #expect(server.filesOrigin.requestCount == 1)
            #expect(server.filesOrigin.authorizationHeaderCount == 0)
            _ = try await APICaller.fetch(url, headers: [("Authorization", "Bearer \(server.demoKey)")])
            #expect(server.filesOrigin.authorizationHeaderCount == 1)
            let onAPIPort = url.replacingOccurrences(of: ":\(filesPort)/", with: ":\(server.port)/")
            #expect(try await APICaller.fetch(onAPIPort).status == 404, "files live only on the files origin")
        }
    }

    @Test func webpIsNotInTheDemoPlanAndUnknownSizesAreRefused() async throws {
        try await TestServer.with(photos: 5) { _, api in
            let webp = try await api.get("/photos/1/download?format=webp")
            #expect(webp.status == 403)
            #expect(webp.errorCode == "tariff_not_supported")
            let size = try await api.get("/photos/1/download?size=huge")
            #expect(size.status == 400)
            #expect(size.json["error"]["details"]["issues"][0]["field"].string == "size")
            #expect(try await api.get("/photos/999/download").status == 404)
        }
    }

    @Test func eachImageIsEncodedOnceHoweverManyAskAtOnce() async throws {
        try await TestServer.with(photos: 5) { server, api in
            let url = try await signedURL(api)
            let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
                for _ in 0..<6 { group.addTask { try await APICaller.fetch(url).body } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(Set(bodies).count == 1)
            #expect(await server.imageEncodeCount == 1)
            _ = try await APICaller.fetch(try await signedURL(api))
            #expect(await server.imageEncodeCount == 1)
        }
    }

    @Test func hostileFilenamesGetASafeASCIIFallbackAndTheExactUTF8Name() async throws {
        try await TestServer.with(photos: 60) { _, api in
            let escape = try #require(try await api.get("/photos?limit=60").json["data"].array.first {
                $0["filename"].string?.contains("\u{1B}") == true
            })
            let id = try #require(escape["id"].int)
            let location = try #require(try await api.signedURL(photo: id))
            let disposition = try #require(try await APICaller.fetch(location).header("Content-Disposition"))
            #expect(!disposition.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
            #expect(disposition.contains("filename*=UTF-8''%1B%5B31mRED%1B%5B0m%20alert.jpg"))
        }
    }
}

/// Checks JPEG bytes with libjpeg through the CJPEG target.
enum JPEG {
    static func size(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        guard cjpeg_inspect(bytes, bytes.count, &width, &height, nil, 0) == CJPEG_OK else { return nil }
        return (Int(width), Int(height))
    }
}
