import Foundation
import NIOHTTP1
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Tag create, read, rename, recolour and delete, with the contract's errors.
struct TagTests {
    @Test func createReadRenameRecolourAndDelete() async throws {
        try await TestServer.with(photos: 5) { _, api in
            let created = try await api.send(.POST, "/tags", json: ##"{"name":"  Landscape  ","color":"#1E90FF"}"##)
            #expect(created.status == 201)
            #expect(created.json["name"].string == "Landscape")
            #expect(created.json["color"].string == "#1e90ff")
            let id = try #require(created.json["id"].int)
            #expect(try await api.get("/tags/\(id)").json == created.json)
            let renamed = try await api.send(.PATCH, "/tags/\(id)", json: #"{"name":"Landscapes"}"#)
            #expect(renamed.json["name"].string == "Landscapes")
            #expect(renamed.json["color"].string == "#1e90ff")
            let uncoloured = try await api.send(.PATCH, "/tags/\(id)", json: #"{"color":null}"#)
            #expect(uncoloured.json["color"].isNull)
            #expect(uncoloured.json["name"].string == "Landscapes")
            #expect(try await api.send(.DELETE, "/tags/\(id)").status == 204)
            #expect(try await api.get("/tags/\(id)").status == 404)
            #expect(try await api.send(.DELETE, "/tags/\(id)").status == 404)
            #expect(try await api.send(.PATCH, "/tags/\(id)", json: #"{"name":"x"}"#).status == 404)
        }
    }

    @Test func duplicateNamesConflictCaseInsensitivelyAfterTrimming() async throws {
        try await TestServer.with(photos: 5) { _, api in
            let first = try await api.send(.POST, "/tags", json: #"{"name":"Street"}"#)
            let id = try #require(first.json["id"].int)
            for name in ["Street", " street ", "STREET"] {
                let duplicate = try await api.send(.POST, "/tags", json: #"{"name":"\#(name)"}"#)
                #expect(duplicate.status == 409, "\(name)")
                #expect(duplicate.errorCode == "conflict")
                #expect(duplicate.json["error"]["details"]["existingTagId"].int == id)
            }
            let rename = try await api.send(.PATCH, "/tags/1", json: #"{"name":"street"}"#)
            #expect(rename.status == 409)
            let recase = try await api.send(.PATCH, "/tags/\(id)", json: #"{"name":"STREET"}"#)
            #expect(recase.status == 200, "renaming a tag to its own name in another case is fine")
        }
    }

    @Test func namesAreOneNameWhateverTheirUnicodeFormOrCase() async throws {
        try await TestServer.with(photos: 5) { (_, api) async throws in
            #expect(try await api.send(.POST, "/tags", json: #"{"name":"Caf\u00e9"}"#).status == 201)
            #expect(try await api.send(.POST, "/tags", json: #"{"name":"CAFE\u0301"}"#).status == 409, "NFD of the same name")
            #expect(try await api.send(.POST, "/tags", json: #"{"name":"Stra\u00dfe"}"#).status == 201)
            #expect(try await api.send(.POST, "/tags", json: #"{"name":"STRASSE"}"#).status == 409, "case folding, not just lowercasing")
            #expect(try await api.send(.POST, "/tags", json: #"{"name":"Cafe"}"#).status == 201, "diacritics still count")
        }
    }

    @Test(arguments: [
        #"{"name":""}"#, #"{"name":"   "}"#, #"{"name":"\#(String(repeating: "n", count: 65))"}"#,
        #"{"name":"ok","color":"red"}"#, ##"{"name":"ok","color":"#12345"}"##, ##"{"color":"#123456"}"##,
        #"{"name":"bell\u0007"}"#, #"{"name":null}"#,
    ])
    func invalidTagsAreValidationErrors(body: String) async throws {
        try await TestServer.with(photos: 5) { _, api in
            let result = try await api.send(.POST, "/tags", json: body)
            #expect(result.status == 400)
            #expect(result.errorCode == "validation_failed")
            #expect(!result.json["error"]["details"]["issues"].array.isEmpty)
        }
    }

    @Test func deletingATagRemovesItFromEveryPhoto() async throws {
        try await TestServer.with(photos: 20) { _, api in
            let tag = try #require(try await api.send(.POST, "/tags", json: #"{"name":"Cascade"}"#).json["id"].int)
            for photo in [1, 5, 9] {
                #expect(try await api.send(.PUT, "/photos/\(photo)/tags", json: #"{"tagIds":[2,\#(tag)]}"#).status == 200)
            }
            #expect(try await api.send(.DELETE, "/tags/\(tag)").status == 204)
            for photo in [1, 5, 9] {
                #expect(try await api.get("/photos/\(photo)").json["tagIds"].array.compactMap(\.int) == [2])
            }
        }
    }
}
