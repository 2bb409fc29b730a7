import Foundation
import PhotoPickKit
@testable import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// Culling against the embedded server: what the server holds afterwards is exactly the marks made,
/// worked out here by a model of its own rather than read back from the session.
@Suite(.timeLimit(.minutes(2))) struct CullingSyncTests {
    /// Every photo's tag names on the server, by id.
    private func serverTagNames(_ server: PhotoPickServer) async throws -> [Int: Set<String>] {
        let client = APIClient.forTesting(server)
        defer { Task { try? await client.shutdown() } }
        let names = Dictionary(uniqueKeysWithValues: try await client.send(API.tags(limit: 100)).data.map { ($0.id, $0.name) })
        var result: [Int: Set<String>] = [:]
        var cursor: String?
        repeat {
            let page = try await client.send(API.photos(limit: 100, cursor: cursor))
            for photo in page.data { result[photo.id] = Set(photo.tagIDs.compactMap { names[$0] }) }
            cursor = page.hasNextPage ? page.pagination.nextCursor : nil
        } while cursor != nil
        return result
    }

    private static let markNames: Set<String> = Set(Mark.all.map(\.defaultTagName))

    /// The marks a photo should end with, from its starting tags and the keys pressed on it.
    private struct Model {
        var tags: Set<String>

        mutating func set(_ mark: Mark) {
            clear(mark.family)
            tags.insert(mark.defaultTagName)
        }

        mutating func clear(_ family: Mark.Family) {
            tags.subtract(Mark.all.filter { $0.family == family }.map(\.defaultTagName))
        }

    }

    @Test(arguments: [0.0, 0.2]) @MainActor
    func afterCullingTheServersTagsAreExactlyTheMarksMade(faultRate: Double) async throws {
        try await TestServer.with(photos: 120, { configuration in
            configuration.faultRate = faultRate
            configuration.faults = [.internalError, .unavailable, .reset]
        }) { server, _ in
            let before = try await serverTagNames(server)
            let models = try await withSession(server) { session in
                try await session.waitForLibrary()
                var models = Dictionary(uniqueKeysWithValues: before.map { ($0.key, Model(tags: $0.value)) })
                var random = SeededRandom(seed: 16)  // the demo generator's own, the same on every run
                // The row's files: a RAW+JPEG pair's marks go on both.
                @MainActor func files() -> [Int] { session.state.tagTargets.map { session.state.library[$0].id } }
                for step in 0..<80 {
                    if step == 40 {
                        // A mark on a selection of five goes on all five.
                        session.send(.selection(.visualRangeToggled))
                        for _ in 0..<4 { session.send(.browsing(.cursorMoved(.down))) }
                        session.send(.selection(.visualRangeToggled))
                        #expect(session.state.selection.count == 5)
                        let chosen = files()
                        session.send(.tags(.markChosen(.rating(4))))
                        for id in chosen { models[id]!.set(.rating(4)) }
                        session.send(.selection(.selectionCleared))
                    }
                    let ids = files()
                    switch random.next() % 9 {
                    case 0: session.send(.tags(.markChosen(.flag(.pick)))); for id in ids { models[id]!.set(.flag(.pick)) }
                    case 1: session.send(.tags(.markChosen(.flag(.reject)))); for id in ids { models[id]!.set(.flag(.reject)) }
                    case 2: session.send(.tags(.markCleared(.flag))); for id in ids { models[id]!.clear(.flag) }
                    case 3, 4:
                        let stars = Int(random.next() % 5) + 1
                        session.send(.tags(.markChosen(.rating(stars)))); for id in ids { models[id]!.set(.rating(stars)) }
                    case 5: session.send(.tags(.markCleared(.rating))); for id in ids { models[id]!.clear(.rating) }
                    default:
                        // All or none, over the row's files.
                        let label = Mark.ColourLabel.allCases[Int(random.next() % 5)]
                        let everyOneHasIt = ids.allSatisfy { models[$0]!.tags.contains(Mark.label(label).defaultTagName) }
                        session.send(.tags(.labelToggled(label)))
                        for id in ids { if everyOneHasIt { models[id]!.clear(.label) } else { models[id]!.set(.label(label)) } }
                    }
                    // Now and then the same photo gets a second mark, as when a culler changes their mind.
                    if random.next() % 4 != 0 { session.send(.browsing(.cursorMoved(.down))) }
                }
                try await session.waitUntil("every mark to be sent") { state in
                    state.unsentTagDeltas == 0 && !state.hasUnfinishedWork
                }
                #expect(session.state.messages.all.allSatisfy { $0.severity != .error })
                return models
            }
            let after = try await serverTagNames(server)
            for (id, model) in models {
                #expect(after[id] == model.tags, "photo \(id)")
            }
            let marked = after.values.filter { !$0.isDisjoint(with: Self.markNames) }.count
            #expect(marked > 40, "the walk marked many photos (\(marked))")
        }
    }

    @Test @MainActor func marksWaitingInTheOutboxAreSentAfterARestart() async throws {
        let stateDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        try await TestServer.with(photos: 40) { server, _ in
            let client = APIClient.forTesting(server)
            for name in ["Pick", "2 stars", "Green"] { _ = try await client.send(API.createTag(name: name)) }
            let photos = try await client.send(API.photos(limit: 3)).data
            let tags = try await client.send(API.tags(limit: 100)).data
            try? await client.shutdown()
            // First run: the server cannot be reached, so the marks stay in the outbox.
            let unreachable = try await TestServer.start(photos: 1)
            await unreachable.stop()
            try await withSession(unreachable, key: server.demoKey, state: stateDirectory, retryPolicy: .never) { session in
                session.report(.tags(.tagsLoaded(tags)))
                session.report(.catalogue(.photosArrived(photos, nextCursor: nil)))
                session.send(.tags(.markChosen(.flag(.reject))))
                session.send(.tags(.markChosen(.flag(.pick))))  // replaces the reject in the same outbox
                session.send(.tags(.markChosen(.rating(2))))
                session.send(.tags(.labelToggled(.green)))
                #expect(session.state.unsentTagDeltas == 4, "one wish per photo and tag: the pick replaced the reject's add with its removal")
            }
            // Second run: sent on top of the server's tags.
            try await withSession(server, state: stateDirectory) { session in
                try await session.waitUntil("the replay") { $0.unsentTagDeltas == 0 && $0.library.index(ofID: photos[0].id) != nil }
            }
            let after = try await serverTagNames(server)
            let expected = Set(photos[0].tagIDs.compactMap { id in tags.first { $0.id == id }?.name }).subtracting(["Reject"])
                .union(["Pick", "2 stars", "Green"])
            #expect(after[photos[0].id] == expected)
        }
    }
}
