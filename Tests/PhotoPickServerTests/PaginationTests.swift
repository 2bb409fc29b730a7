import Foundation
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Keyset pagination of `/photos` and `/tags`, its limits and its signed cursors.
struct PaginationTests {
    /// Thirty pages, every photo once and in order (the Kit's `PhotoStream` walks ten thousand).
    @Test func walksThreeThousandPhotosCompletelyInStableOrder() async throws {
        try await TestServer.with(photos: 3_000) { _, api in
            var ids: [Int] = []
            var cursor: String?
            var pages = 0
            repeat {
                let path = "/photos?limit=100" + (cursor.map { "&cursor=\($0)" } ?? "")
                let page = try await api.get(path)
                #expect(page.status == 200)
                let json = page.json
                ids += json["data"].array.compactMap { $0["id"].int }
                let pagination = json["pagination"]
                cursor = pagination["nextCursor"].string
                #expect(pagination["hasMore"].bool == (cursor != nil))
                pages += 1
            } while cursor != nil && pages < 100
            #expect(pages == 30)
            #expect(ids.count == 3_000)
            #expect(Set(ids).count == 3_000)
            #expect(ids == Array(1...3_000))
        }
    }

    @Test func theLastPageSaysSoWithANullCursor() async throws {
        try await TestServer.with(photos: 30) { _, api in
            let first = try await api.get("/photos?limit=20").json["pagination"]
            #expect(first["hasMore"].bool == true)
            let cursor = try #require(first["nextCursor"].string)
            let last = try await api.get("/photos?limit=20&cursor=\(cursor)").json
            #expect(last["data"].array.count == 10)
            #expect(last["pagination"]["hasMore"].bool == false)
            #expect(last["pagination"].has("nextCursor") && last["pagination"]["nextCursor"].isNull)
            #expect(try await api.get("/photos").json["data"].array.count == 30, "the default limit is 50")
        }
    }

    @Test(arguments: ["0", "101", "abc", "-5", "", "1.5"])
    func limitsOutside1To100AreValidationErrors(limit: String) async throws {
        try await TestServer.with(photos: 5) { _, api in
            for path in ["/photos", "/tags"] {
                let result = try await api.get("\(path)?limit=\(limit)")
                #expect(result.status == 400)
                #expect(result.errorCode == "validation_failed")
                #expect(result.json["error"]["details"]["issues"][0]["field"].string == "limit")
            }
        }
    }

    @Test func tamperedOrForeignCursorsAreInvalidCursor() async throws {
        try await TestServer.with(photos: 50) { _, api in
            let cursor = try #require(try await api.get("/photos?limit=10").json["pagination"]["nextCursor"].string)
            var tampered = Array(cursor)
            tampered[2] = tampered[2] == "A" ? "B" : "A"
            let tagCursor = try #require(try await api.get("/tags?limit=2").json["pagination"]["nextCursor"].string)
            for bad in [String(tampered), "garbage", tagCursor, cursor + "x"] {
                let result = try await api.get("/photos?cursor=\(bad)")
                #expect(result.status == 400, "\(bad)")
                #expect(result.errorCode == "invalid_cursor", "\(bad)")
            }
            #expect(try await api.get("/photos?limit=10&cursor=\(cursor)").json["data"][0]["id"].int == 11)
        }
    }

    @Test func tagsPaginateToo() async throws {
        try await TestServer.with(photos: 5) { _, api in
            var names: [String] = []
            var cursor: String?
            repeat {
                let page = try await api.get("/tags?limit=3" + (cursor.map { "&cursor=\($0)" } ?? "")).json
                names += page["data"].array.compactMap { $0["name"].string }
                cursor = page["pagination"]["nextCursor"].string
            } while cursor != nil
            #expect(names == ["Favourite", "Portfolio", "Print", "Family", "Travel", "Reject", "To edit"])
        }
    }
}
