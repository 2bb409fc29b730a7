import Foundation
import Logging
@testable import PhotoBrowser
import PhotoPickConfig
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Synchronization
import Testing
@testable import PhotoPickCommands

/// A library opened before shows from its catalogue before the server answers anything; `/me` then
/// confirms it, names another account's library in its place, or refuses the key.
@Suite(.timeLimit(.minutes(1))) struct RememberedLibraryTests {
    private let home = TestServer.temporaryDirectory()
    private var paths: Paths { Paths(environment: ["HOME": home.path, "XDG_STATE_HOME": home.appending(path: "state").path]) }
    private let logger = Logger(label: "test")

    private func open(_ server: PhotoPickServer, key: String? = nil, resources: Resources) async throws -> LibraryConnection {
        try await LibraryConnection.open(
            .api(server.baseURL, .fixed(APIKey(key ?? server.demoKey))), paths: paths, logger: logger, clock: .continuous, resources: resources,
            remembering: true
        )
    }

    @MainActor
    private func provisionalSession(_ connection: LibraryConnection) throws -> BrowserSession {
        var configuration = BrowserSession.Configuration.photopick(
            library: connection.library, config: Config(), paths: paths, downloadDirectory: home.appending(path: "downloads").path,
            concurrency: nil, logger: logger, clock: Timekeeper(TestClock()), account: nil, refresh: .onStart
        )
        configuration.isProvisional = connection.isRemembered
        return try BrowserSession(client: connection.client, configuration: configuration)
    }

    @Test @MainActor func aRememberedLibraryShowsItsRowsBeforeAnyAnswerAndSendsNothingUntilConfirmed() async throws {
        let data = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data); try? FileManager.default.removeItem(at: home) }
        // The first run: the key is checked, the library remembered and walked into its catalogue.
        let first = try await TestServer.start(photos: 120) { $0.dataDirectory = data }
        let resources = Resources()
        let checked = try await open(first, resources: resources)
        #expect(!checked.isRemembered && checked.account != nil)
        try await withSession(first, state: paths.stateDirectory, library: checked.library) { try await $0.waitForLibrary() }
        await resources.close()
        let port = first.port
        await first.stop()

        // The next run, on the same address: every request stalls until the test lets the server's clock run.
        let clock = TestClock(), log = LineLog()
        let stalled = try await TestServer.start(photos: 120) { configuration in
            configuration.dataDirectory = data
            configuration.port = port
            configuration.faultRate = 1
            configuration.faults = [.slow]
            configuration.latency = .milliseconds(1500)
            configuration.clock = clock
            configuration.requestLog = { log.append($0) }
        }
        let again = Resources()
        // Opening must not wait for the server, which answers nothing until the clock runs: were it to
        // wait, the suite's time limit would end the test.
        let remembered = try await open(stalled, resources: again)
        #expect(remembered.isRemembered && remembered.library == checked.library)
        let session = try provisionalSession(remembered)
        // The state database is opened once: the lookup's connection, held until the confirmation, is the session's.
        let shared = try StateDatabase.opened(in: paths.stateDirectory)
        #expect(remembered.known != nil && shared === session.outbox.database)
        try session.start()
        try await session.waitUntil("the catalogue's rows") { $0.library.count == 120 && $0.list.count == 120 - $0.library.pairs.count }
        #expect(log.lines.isEmpty, "the rows came before any answer: \(log.lines)")
        // A provisional session asks nothing (no /me, tags, walk): what would reach the server is held, and
        // nothing waits at the server's stall.
        #expect(session.held.contains(.walkLibrary) && !session.isConfirmed)
        #expect(clock.sleeperCount == 0, "nothing sent before the library is confirmed: \(log.lines)")
        clock.runFree()

        guard case .same(let me, let name) = try await remembered.confirm(paths: paths, logger: logger) else {
            Issue.record("the remembered library was not confirmed")
            return
        }
        #expect(name != nil)
        session.confirm(me)
        try await session.waitForLibrary()
        #expect(log.lines.contains { $0.hasPrefix("GET /api/v1/photos ") }, "the walk ran once confirmed")
        #expect(session.state.account.keyName == me.name)
        await session.stop()
        await again.close()
        await stalled.stop()
    }

    @Test @MainActor func aKeyOfAnotherAccountOpensThatAccountsLibraryInstead() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try await TestServer.with(photos: 30) { server, _ in
            // Last time, this address opened another customer's library, with a catalogue of its own.
            let other = "\(server.baseURL.absoluteString)#customer-999"
            try KnownLibraries(stateDirectory: paths.stateDirectory).remember(.init(library: other, name: "Someone else"), at: server.baseURL.absoluteString)
            try await withSession(server, state: paths.stateDirectory, library: other) { try await $0.waitForLibrary() }

            let resources = Resources()
            let remembered = try await open(server, resources: resources)
            #expect(remembered.isRemembered && remembered.library == other && remembered.name == "Someone else")
            guard case .other(let replacement) = try await remembered.confirm(paths: paths, logger: logger) else {
                Issue.record("another account's library was confirmed")
                return
            }
            let me = try #require(replacement.account)
            #expect(replacement.library == LibraryConnection.library(server.baseURL, me) && replacement.library != other)
            #expect(!replacement.isRemembered)
            // The key's own library is the one the next start shows.
            let known = try KnownLibraries(stateDirectory: paths.stateDirectory).library(at: server.baseURL.absoluteString)
            #expect(known?.library == replacement.library)
            await resources.close()
        }
    }

    @Test @MainActor func aRefusedKeyStillEndsTheProgramWithExitThree() async throws {
        defer { try? FileManager.default.removeItem(at: home) }
        try await TestServer.with(photos: 5) { server, _ in
            let url = server.baseURL.absoluteString
            try KnownLibraries(stateDirectory: paths.stateDirectory).remember(.init(library: "\(url)#customer-1", name: nil), at: url)
            let resources = Resources()
            let remembered = try await open(server, key: "pp_live_wrong", resources: resources)
            #expect(remembered.isRemembered)
            do {
                _ = try await remembered.confirm(paths: paths, logger: logger)
                Issue.record("a refused key was confirmed")
            } catch {
                #expect(Launcher.status(for: error).code == 3)
            }
            await resources.close()
        }
    }
}
