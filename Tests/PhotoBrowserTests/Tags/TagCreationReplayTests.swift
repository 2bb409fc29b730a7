import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// A mark or tag whose tag must first be made is one outbox entry: written before the key's handling
/// returns, replayed by the next session, exactly once, against the embedded server.
@Suite(.timeLimit(.minutes(2))) struct TagCreationReplayTests {
    /// Every tag on the server, and the ids of photos carrying each, by name.
    private func serverTags(_ server: PhotoPickServer, photos ids: [Int]) async throws -> (tags: [PhotoPickKit.Tag], carrying: [Int: Set<Int>]) {
        let client = APIClient.forTesting(server)
        defer { Task { try? await client.shutdown() } }
        let tags = try await client.send(API.tags(limit: 100)).data
        var carrying: [Int: Set<Int>] = [:]
        for id in ids { carrying[id] = Set(try await client.send(API.photoTags(id: id)).tags.map(\.id)) }
        return (tags, carrying)
    }

    /// A session against a server that is already gone: nothing it records can be sent, as when the
    /// process is stopped before the first request leaves.
    @MainActor
    private func offline(_ server: PhotoPickServer, state: URL, _ body: (BrowserSession) async throws -> Void) async throws {
        let client = APIClient.forTesting(server)
        let photos = try await client.send(API.photos(limit: 5)).data
        let tags = try await client.send(API.tags(limit: 100)).data
        try? await client.shutdown()
        let gone = try await TestServer.start(photos: 1)
        await gone.stop()
        try await withSession(gone, key: server.demoKey, state: state, retryPolicy: .never) { session in
            session.report(.tags(.tagsLoaded(tags)))
            session.report(.catalogue(.photosArrived(photos, nextCursor: nil)))
            try await body(session)
        }
    }

    @Test @MainActor func aMarkWhoseTagIsNotMadeSurvivesTheSessionAndIsSentExactlyOnce() async throws {
        let stateDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let log = LineLog()
        try await TestServer.with(photos: 40, { $0.requestLog = { log.append($0) } }) { server, _ in
            let ids = try await APIClient.forTesting(server).send(API.photos(limit: 3)).data.map(\.id)
            #expect(try await serverTags(server, photos: []).tags.allSatisfy { $0.name != "Purple" })
            try await offline(server, state: stateDirectory) { session in
                for id in ids { session.send(.tags(.photoMarked(.toggleLabel(.purple), photoID: id))) }
                // Durable already: the session is torn down before anything reaches the server.
                #expect(session.state.unsentTagDeltas == 3)
            }
            let written = { (prefix: String) in log.requests(prefix).count }
            #expect(written("POST /api/v1/tags") == 0)
            try await withSession(server, state: stateDirectory, refresh: .manual) { session in
                try await session.waitUntil("the replay") { $0.unsentTagDeltas == 0 && $0.tags.pending.isEmpty }
            }
            #expect(written("POST /api/v1/tags") == 1, "the tag is made once")
            #expect(written("PUT /api/v1/photos/") == 3, "each photo written once")
            let (tags, carrying) = try await serverTags(server, photos: ids)
            let purple = try #require(tags.first { $0.name == "Purple" })
            #expect(tags.filter { $0.name == "Purple" }.count == 1 && purple.color == "#8e4ec6")
            #expect(ids.allSatisfy { carrying[$0]?.contains(purple.id) == true })
            // A third session finds nothing left to send.
            try await withSession(server, state: stateDirectory, refresh: .manual) { session in
                try await session.waitUntil("the tags") { $0.tags.isLoaded }
                #expect(session.state.unsentTagDeltas == 0)
            }
            #expect(written("POST /api/v1/tags") == 1 && written("PUT /api/v1/photos/") == 3)
        }
    }

    @Test @MainActor func aNameTakenMeanwhileIsThatTag() async throws {
        let stateDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        let log = LineLog()
        try await TestServer.with(photos: 40, { $0.requestLog = { log.append($0) } }) { server, _ in
            let ids = try await APIClient.forTesting(server).send(API.photos(limit: 2)).data.map(\.id)
            try await offline(server, state: stateDirectory) { session in
                session.send(.tags(.tagCreationRequested(name: "Kyoto", color: "#123456", applyTo: ids)))
                #expect(session.state.unsentTagDeltas == 2)
            }
            // Elsewhere, the name is taken first.
            let client = APIClient.forTesting(server)
            let taken = try await client.send(API.createTag(name: "kyoto"))
            try? await client.shutdown()
            try await withSession(server, state: stateDirectory, refresh: .manual) { session in
                try await session.waitUntil("the replay") { $0.unsentTagDeltas == 0 && $0.tags.pending.isEmpty }
                #expect(session.state.messages.all.allSatisfy { $0.severity != .error })
            }
            #expect(log.requests("POST /api/v1/tags 409").count == 1, "refused as taken, once")
            let (tags, carrying) = try await serverTags(server, photos: ids)
            #expect(tags.filter { PhotoPickKit.Tag.nameKey($0.name) == PhotoPickKit.Tag.nameKey("Kyoto") }.map(\.id) == [taken.id])
            #expect(ids.allSatisfy { carrying[$0]?.contains(taken.id) == true })
        }
    }
}
