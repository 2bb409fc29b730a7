import Foundation
import NIOHTTP1
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `--data` keeps the library, its edits and its key between runs.
struct PersistenceTests {
    @Test func editsAndTheKeySurviveARestart() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await TestServer.start(photos: 50, { $0.dataDirectory = directory })
        #expect(first.createdLibrary)
        let key = first.demoKey
        #expect(key.hasPrefix("pp_test_"))
        let api = APICaller(server: first)
        let tag = try #require(try await api.send(.POST, "/tags", json: ##"{"name":"Kept","color":"#abcdef"}"##).json["id"].int)
        _ = try await api.send(.PUT, "/photos/7/tags", json: #"{"tagIds":[\#(tag)]}"#)
        _ = try await api.send(.PATCH, "/photos/7", json: #"{"title":"Still here"}"#)
        _ = try await api.send(.DELETE, "/photos/8")
        let download = try await APICaller.fetch(try #require(try await api.signedURL(photo: 7)))
        await first.stop()

        try await TestServer.with(photos: 999, seed: 99, { $0.dataDirectory = directory }) { second, again in
            #expect(!second.createdLibrary)
            #expect(second.photoCount == 50)
            #expect(second.demoKey == key)
            let photo = try await again.get("/photos/7").json
            #expect(photo["title"].string == "Still here")
            #expect(photo["tagIds"].array.compactMap(\.int) == [tag])
            #expect(try await again.get("/tags/\(tag)").json["color"].string == "#abcdef")
            #expect(try await again.get("/photos/8").status == 404)
            let redownload = try await APICaller.fetch(try #require(try await again.signedURL(photo: 7)))
            #expect(redownload.body == download.body)
            #expect(await second.imageEncodeCount == 0, "the cached image is reused, not encoded again")
        }
    }

    @Test func withoutDataTheLibraryIsTemporaryAndRemovedOnStop() async throws {
        let server = try await TestServer.start(photos: 5)
        let directory = server.dataDirectory
        #expect(FileManager.default.fileExists(atPath: directory.appending(path: "library.sqlite").path))
        await server.stop()
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aKeptLibraryIsNotRemovedOnStop() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestServer.start(photos: 5, { $0.dataDirectory = directory })
        let api = APICaller(server: server)
        _ = try await api.send(.PATCH, "/photos/1", json: #"{"title":"written"}"#)
        _ = try await api.get("/photos")
        await server.stop()
        #expect(FileManager.default.fileExists(atPath: directory.appending(path: "library.sqlite").path))
        let log = directory.appending(path: "library.sqlite-wal").path
        let logSize = (try? FileManager.default.attributesOfItem(atPath: log)[.size] as? Int) ?? 0
        #expect(logSize == 0, "stop folds the write-ahead log into library.sqlite")
    }

    @Test func aPortInUseIsAOneLineErrorNamingTheFix() async throws {
        try await TestServer.with(photos: 5) { server, _ in
            await #expect {
                _ = try await TestServer.start(photos: 5, { $0.port = server.port })
            } throws: { error in
                let text = String(describing: error)
                return text.contains("--port") && !text.contains("\n")
            }
        }
    }
}
