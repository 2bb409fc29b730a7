import Foundation
import NIOHTTP1
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `/photos/{id}`, its edits, deletion and its tags.
struct PhotoTests {
    @Test func aPhotoHasTheDocumentedFieldsAndOurs() async throws {
        try await TestServer.with { _, api in
            let photo = try await api.get("/photos/1")
            #expect(photo.status == 200)
            #expect(photo.header("Content-Type") == "application/json")
            let json = photo.json
            #expect(json["id"].int == 1)
            #expect(json["filename"].string != nil)
            #expect((json["bytes"].int ?? 0) > 0)
            #expect(json.has("takenAt"))
            #expect(json.has("tagIds"))
            for key in ["width", "height", "mimeType", "createdAt", "camera", "lens", "exposure", "location", "title", "description"] {
                #expect(json.has(key), "missing \(key)")
            }
            #expect(["image/jpeg", "image/heic", "image/x-adobe-dng", "image/png"].contains(json["mimeType"].string ?? "none"))
        }
    }

    @Test(arguments: ["abc", "1.5", "-1", "0", "99999999999999999999", "%20"])
    func nonIntegerAndUnknownIdsAre404(id: String) async throws {
        try await TestServer.with(photos: 5) { _, api in
            let result = try await api.get("/photos/\(id)")
            #expect(result.status == 404)
            #expect(result.errorCode == "not_found")
        }
    }

    @Test func patchChangesOnlyTheFieldsGiven() async throws {
        try await TestServer.with { _, api in
            let before = try await api.get("/photos/3").json
            let patched = try await api.send(.PATCH, "/photos/3", json: #"{"title":"Harbour","takenAt":"2024-06-01T16:03:22.250+02:00"}"#)
            #expect(patched.status == 200)
            #expect(patched.json["title"].string == "Harbour")
            #expect(patched.json["takenAt"].string == "2024-06-01T14:03:22.250Z", "kept to the millisecond: a shifted burst keeps its order")
            #expect(patched.json["filename"] == before["filename"])
            #expect(patched.json["description"] == before["description"])
            let cleared = try await api.send(.PATCH, "/photos/3", json: #"{"takenAt":null,"filename":"renamed.jpg"}"#)
            #expect(cleared.json["takenAt"].isNull)
            #expect(cleared.json["filename"].string == "renamed.jpg")
            #expect(cleared.json["title"].string == "Harbour")
            #expect(try await api.get("/photos/3").json == cleared.json)
        }
    }

    @Test func badBodiesGetTheDocumentedErrors() async throws {
        try await TestServer.with { _, api in
            let before = try await api.get("/photos/1").json
            let malformed = try await api.send(.PATCH, "/photos/1", json: #"{"title": "#)
            #expect(malformed.status == 400)
            #expect(malformed.errorCode == "validation_failed")
            let wrongType = try await api.send(.PATCH, "/photos/1", json: #"{"title": 5}"#)
            #expect(wrongType.status == 400)
            #expect(wrongType.json["error"]["details"]["issues"][0]["field"].string == "title")
            let notJSON = try await api.send(.PATCH, "/photos/1", json: "title=x", contentType: "application/x-www-form-urlencoded")
            #expect(notJSON.status == 415)
            #expect(notJSON.errorCode == "unsupported_media")
            let huge = try await api.send(.PATCH, "/photos/1", json: #"{"description":""# + String(repeating: "x", count: 70_000) + #""}"#)
            #expect(huge.status == 413)
            #expect(huge.errorCode == "payload_too_large")
            let blank = try await api.send(.PATCH, "/photos/1", json: #"{"filename":"   "}"#)
            #expect(blank.json["error"]["details"]["issues"][0]["field"].string == "filename")
            for date in ["yesterday", "2024-01-01T12:99:00Z", "2023-02-29T10:00:00Z", "2024-06-01 14:03:22"] {
                let result = try await api.send(.PATCH, "/photos/1", json: #"{"takenAt":"\#(date)"}"#)
                #expect(result.status == 400, "\(date)")
            }
            #expect(try await api.get("/photos/1").json == before, "a refused edit must change nothing")
        }
    }

    @Test func deleteIsHardAndASecondDeleteIs404() async throws {
        try await TestServer.with { _, api in
            #expect(try await api.send(.PUT, "/photos/4/tags", json: #"{"tagIds":[1,2]}"#).status == 200)
            let deleted = try await api.send(.DELETE, "/photos/4")
            #expect(deleted.status == 204)
            #expect(deleted.body.isEmpty)
            #expect(try await api.get("/photos/4").status == 404)
            #expect(try await api.get("/photos/4/tags").status == 404)
            #expect(try await api.send(.DELETE, "/photos/4").status == 404)
            let page = try await api.get("/photos?limit=10").json["data"].array.compactMap { $0["id"].int }
            #expect(page == [1, 2, 3, 5, 6, 7, 8, 9, 10, 11])
        }
    }

    @Test func putTagsReplacesTheWholeSetFoldingDuplicates() async throws {
        try await TestServer.with { _, api in
            let replaced = try await api.send(.PUT, "/photos/2/tags", json: #"{"tagIds":[3,1,3,1]}"#)
            #expect(replaced.status == 200)
            #expect(replaced.json["tagIds"].array.compactMap(\.int) == [1, 3])
            #expect(try await api.get("/photos/2").json["tagIds"].array.compactMap(\.int) == [1, 3])
            let tags = try await api.get("/photos/2/tags").json["data"].array
            #expect(tags.compactMap { $0["id"].int } == [1, 3])
            #expect(tags[0]["name"].string == "Favourite")
            #expect(tags[0]["color"].string == "#e94b60")
            let cleared = try await api.send(.PUT, "/photos/2/tags", json: #"{"tagIds":[]}"#)
            #expect(cleared.json["tagIds"].array.isEmpty)
        }
    }

    @Test func putTagsWithAnUnknownTagChangesNothing() async throws {
        try await TestServer.with { _, api in
            _ = try await api.send(.PUT, "/photos/2/tags", json: #"{"tagIds":[2]}"#)
            let refused = try await api.send(.PUT, "/photos/2/tags", json: #"{"tagIds":[1,999]}"#)
            #expect(refused.status == 400)
            #expect(refused.errorCode == "validation_failed")
            #expect(refused.json["error"]["details"]["issues"][0]["field"].string == "tagIds")
            #expect(try await api.get("/photos/2").json["tagIds"].array.compactMap(\.int) == [2])
            #expect(try await api.send(.PUT, "/photos/2/tags", json: #"{"tagIds":"1"}"#).status == 400)
            #expect(try await api.send(.PUT, "/photos/2/tags", json: "{}").status == 400)
            #expect(try await api.send(.PUT, "/photos/9999/tags", json: #"{"tagIds":[]}"#).status == 404)
        }
    }
}
