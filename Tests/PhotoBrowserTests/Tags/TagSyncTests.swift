import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

@Suite(.timeLimit(.minutes(2))) struct TagSyncTests {
    /// The server's tags of every photo, by id.
    private func serverTags(_ server: PhotoPickServer, ids: [Int]) async throws -> [Int: Set<Int>] {
        let client = APIClient.forTesting(server)
        defer { Task { try? await client.shutdown() } }
        var result: [Int: Set<Int>] = [:]
        for id in ids { result[id] = Set(try await client.send(API.photoTags(id: id)).tags.map(\.id)) }
        return result
    }

    @Test @MainActor func togglingOn200PhotosUnder20PercentFaultsConvergesToTheIntendedState() async throws {
        try await TestServer.with(photos: 200, { configuration in
            configuration.faultRate = 0.2
            configuration.faults = [.internalError, .unavailable, .reset]
        }) { server, _ in
            let intended = try await withSession(server) { session in
                try await session.waitForLibrary()
                session.send(.selection(.allMatchingSelected))
                session.send(.tags(.tagNumberPressed(2)))   // added to those that lack it
                session.send(.selection(.selectionCleared))
                var lost = 0
                // Then every fourth row loses it again (a RAW+JPEG pair's both files).
                for _ in stride(from: 0, to: session.state.list.count, by: 4) {
                    lost += session.state.tagTargets.count
                    session.send(.tags(.tagNumberPressed(2)))
                    for _ in 0..<4 { session.send(.browsing(.cursorMoved(.down))) }
                }
                #expect(lost >= session.state.list.count / 4)
                let intended = Dictionary(uniqueKeysWithValues: (0..<200).map { index in
                    (session.state.library[index].id, Set(session.state.library[index].tagIDs))
                })
                try await session.waitUntil("every edit to be sent") { $0.unsentTagDeltas == 0 }
                #expect(session.state.messages.all.allSatisfy { $0.severity != .error })
                #expect(intended.values.filter { $0.contains(2) }.count == 200 - lost)
                return intended
            }
            let actual = try await serverTags(server, ids: Array(intended.keys))
            #expect(actual == intended)
        }
    }

    @Test @MainActor func outboxSurvivesARestartAndReadModifyWriteKeepsAChangeMadeElsewhere() async throws {
        let stateDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        try await TestServer.with(photos: 50) { server, _ in
            // First run: the server cannot be reached, so the edit stays in the outbox.
            let unreachable = try await TestServer.start(photos: 1)
            let photo = try await APIClient.forTesting(server).send(API.photo(id: 7))
            await unreachable.stop()
            try await withSession(unreachable, key: server.demoKey, state: stateDirectory, retryPolicy: .never) { session in
                session.report(.tags(.tagsLoaded(try await APIClient.forTesting(server).send(API.tags()).data)))
                session.report(.catalogue(.photosArrived([photo], nextCursor: nil)))
                session.send(.tags(.tagToggled(tagID: 1)))
                #expect(session.state.unsentTagDeltas == 1)
            }
            // Meanwhile, elsewhere, the photo is tagged 3 (and loses whatever it had).
            _ = try await APIClient.forTesting(server).send(API.replacePhotoTags(id: 7, tagIDs: [3]))

            // Second run: the outbox is replayed as a delta on top of the server's current set.
            try await withSession(server, state: stateDirectory) { session in
                try await session.waitUntil("the replay") { $0.unsentTagDeltas == 0 && $0.library.index(ofID: 7) != nil }
                try await session.waitUntil("the replay report") { state in
                    state.messages.all.contains { $0.text == "Sent the tag changes of 1 photo left from the last session." }
                }
                let index = try #require(session.state.library.index(ofID: 7))
                #expect(Set(session.state.library[index].tagIDs) == [1, 3])
            }
            #expect(try await serverTags(server, ids: [7]) == [7: [1, 3]])
        }
    }

    @Test @MainActor func undoSendsTheInverseDelta() async throws {
        try await TestServer.with(photos: 30) { server, _ in
            let before = try await serverTags(server, ids: Array(1...30))
            try await withSession(server) { session in
                try await session.waitForLibrary()
                session.send(.browsing(.cursorMoved(.position(3))))
                session.send(.selection(.visualRangeToggled))
                session.send(.browsing(.cursorMoved(.position(9))))
                session.send(.tags(.tagNumberPressed(5)))
                try await session.waitUntil("the edit to be sent") { $0.unsentTagDeltas == 0 }
                session.send(.undoRequested)
                try await session.waitUntil("the undo to be sent") { $0.unsentTagDeltas == 0 }
            }
            #expect(try await serverTags(server, ids: Array(1...30)) == before)
        }
    }

    @Test @MainActor func aReadOnlyKeyDisablesTaggingAndSaysWhy() async throws {
        try await TestServer.with(photos: 20, { configuration in
            configuration.keys = [try KeySpec(parsing: "pp_test_readonly=customer:read,photos:read,tags:read")]
        }) { server, _ in
            try await withSession(server, key: "pp_test_readonly") { session in
                try await session.waitForLibrary()
                try await session.waitUntil("the scopes") { $0.account.scopes != nil }
                #expect(session.state.account.disabledReason(.tagging)?.contains("photos:write") == true)
                #expect(session.state.account.allows(.downloading))
                session.send(.tags(.tagNumberPressed(1)))
                #expect(session.state.unsentTagDeltas == 0)
                #expect(session.state.messages.current?.text.hasPrefix("Tagging is read-only") == true)
            }
        }
    }

    @Test @MainActor func creatingATagWhoseNameIsTakenNamesTheExistingTag() async throws {
        try await TestServer.with(photos: 5) { server, _ in
            try await withSession(server) { session in
                try await session.waitForLibrary()
                session.send(.tags(.tagRenameRequested(tagID: 2, name: "favourite")))
                try await session.waitUntil("the refusal") { $0.messages.current?.severity == .error }
                #expect(session.state.messages.current?.text.hasPrefix("A tag named “Favourite” already exists") == true)
                session.send(.status(.messageDismissed))
                session.send(.tags(.tagCreationRequested(name: "Night", color: "#123456")))
                try await session.waitUntil("the new tag") { $0.tags.tags.contains { $0.name == "Night" } }
            }
        }
    }
}
