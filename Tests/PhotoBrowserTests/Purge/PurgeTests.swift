import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// A purge against the embedded server: originals kept byte for byte before anything is deleted, every
/// deletion logged before it is sent, and a killed purge settled exactly by asking the server.
@Suite(.timeLimit(.minutes(2))) struct PurgeTests {
    private func original(_ client: APIClient, _ id: Int) async throws -> Data {
        let folder = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = try await client.send(API.photo(id: id))
        let result = try await client.download(photo: photo, into: folder)
        return try Data(contentsOf: result.fileURL)
    }

    @Test @MainActor func rejectsArePurgedUnderFaultsWithOriginalsKeptAndEveryDeletionLogged() async throws {
        let state = TestServer.temporaryDirectory()
        let kept = TestServer.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: state)
            try? FileManager.default.removeItem(at: kept)
        }
        try await TestServer.with(photos: 30, { configuration in
            configuration.faultRate = 0.2
            configuration.faults = [.internalError, .unavailable, .reset]
        }) { server, _ in
            let client = APIClient.forTesting(server, retryPolicy: .fast)
            defer { Task { try? await client.shutdown() } }
            let doomed = [3, 7, 11, 12]
            var originals: [Int: Data] = [:]
            for id in doomed { originals[id] = try await original(client, id) }
            // The purge is dated by the session's clock, three hours on.
            let clock = TestClock()
            try await withSession(server, state: state, clock: clock) { session in
                try await session.waitForLibrary()
                #expect(session.state.purging.problem(Array(1...30), account: session.state.account, limit: 20)?.contains("more than one purge deletes (20)") == true)
                clock.advance(by: .seconds(3 * 3600))
                session.send(.purge(.purgeRequested(doomed, keepOriginals: kept)))
                try await session.waitUntil("the purge") { $0.purge == nil }
                for id in doomed { #expect(session.state.library.index(ofID: id) == nil) }
                #expect(session.state.library.count == 26)
            }
            for id in doomed {
                await #expect(throws: APIError.self) { try await client.send(API.photo(id: id)) }
            }
            let records = try PurgeLog(url: state.appending(path: "purge-log.jsonl")).records()
            #expect(Set(records.map(\.at)) == [Timekeeper.testEpoch.addingTimeInterval(3 * 3600)], "every record at the session's time")
            for id in doomed {
                let mine = records.filter { $0.id == id }.map(\.kind)
                #expect(mine == [.planned, .kept, .intent, .deleted], "photo \(id): \(mine)")
                let path = try #require(records.first { $0.id == id && $0.kind == .kept }?.path)
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == originals[id], "photo \(id)'s kept original differs")
            }
            // The next session finds nothing unsettled.
            try await withSession(server, state: state) { session in
                try await session.waitUntil("the log checked") { $0.interruptedPurge != nil }
                #expect(session.state.interruptedPurge == PurgeSummary())
            }
        }
    }

    @Test @MainActor func aKilledPurgeIsSettledByAskingTheServerAndReportedExactly() async throws {
        let state = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: state) }
        try await TestServer.with(photos: 10) { server, _ in
            let client = APIClient.forTesting(server)
            defer { Task { try? await client.shutdown() } }
            let log = PurgeLog(url: state.appending(path: "purge-log.jsonl"))
            // As a kill leaves it: two intents without answers; the server got one of the deletes.
            try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
            try await withSession(server, state: state) { session in
                try await session.waitForLibrary()
            }
            let library = "test"
            try log.append([
                PurgeLog.Record(kind: .intent, purge: "p", library: library, id: 2, filename: "a", at: Sample.now),
                PurgeLog.Record(kind: .intent, purge: "p", library: library, id: 5, filename: "b", at: Sample.now),
                PurgeLog.Record(kind: .intent, purge: "p", library: "another", id: 6, filename: "c", at: Sample.now),
            ])
            try await client.send(API.deletePhoto(id: 2)) as Void
            try await withSession(server, state: state) { session in
                try await session.waitUntil("the log settled") { $0.interruptedPurge != nil }
                let report = try #require(session.state.interruptedPurge)
                #expect(report.deleted == [2])
                #expect(Array(report.failed.keys) == [5])
                #expect(session.state.library.index(ofID: 2) == nil)
                #expect(session.state.library.index(ofID: 5) != nil)
                let message = try #require(session.state.messages.all.last { $0.text.contains("interrupted") })
                #expect(message.text.contains("1 photo deleted; 1 not deleted, still on the server (5)."))
            }
            #expect(try log.unsettled(library: library).isEmpty)
            #expect(try log.interrupted(library: library).isEmpty, "the settled purge is marked finished")
            #expect(try log.unsettled(library: "another").map(\.id) == [6], "another library's purge is not this one's to settle")
        }
    }
}
