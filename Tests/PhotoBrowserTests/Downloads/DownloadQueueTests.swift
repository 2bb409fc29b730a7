import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

@Suite(.timeLimit(.minutes(2))) struct DownloadQueueTests {
    @Test @MainActor func theSamePhotoAndVariantAreNeverQueuedTwice() async throws {
        let downloads = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: downloads) }
        try await TestServer.with(photos: 10) { server, _ in
            try await withSession(server, downloads: downloads) { session in
                try await session.waitForLibrary()
                session.send(.selection(.selectionToggledAndAdvanced))
                session.send(.selection(.selectionToggledAndAdvanced))
                session.send(.downloads(.downloadRequested))
                session.send(.downloads(.downloadRequested))
                session.send(.selection(.selectionToggledAndAdvanced))
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("three downloads") { $0.downloads.totals.done == 3 }
                session.send(.downloads(.downloadRequested))
                // Their files are read off the main actor first; the answer comes when they are.
                try await session.waitUntil("three photos already there") { $0.messages.current?.text == "Nothing new to download: 3 already downloaded." }
                session.send(.downloads(.downloadVariantChosen(.web)))
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("the web variants") { $0.downloads.totals.done == 6 }
                #expect(session.state.downloads.items.count == 6)
            }
            #expect(listing(downloads).count == 6)
            #expect(!listing(downloads).contains { $0.hasSuffix(".part") })
        }
    }

    @Test @MainActor func aDownloadedPhotoIsFetchedAgainIntoAnotherFolderOrWhenItsFileIsGone() async throws {
        let first = TestServer.temporaryDirectory(), second = TestServer.temporaryDirectory()
        defer { [first, second].forEach { try? FileManager.default.removeItem(at: $0) } }
        try await TestServer.with(photos: 5) { server, _ in
            try await withSession(server, downloads: first) { session in
                try await session.waitForLibrary()
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("the first download") { $0.downloads.totals.done == 1 }
                let saved = try #require(session.state.downloads.items.first?.resultPath)
                try FileManager.default.removeItem(atPath: saved)
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("the file fetched again") { $0.downloads.totals.done == 1 && FileManager.default.fileExists(atPath: saved) }
                session.send(.downloads(.downloadRequested))
                // Their files are read off the main actor first; the answer comes when they are.
                try await session.waitUntil("one photo already there") { $0.messages.current?.text == "Nothing new to download: 1 already downloaded." }
                session.send(.downloads(.downloadDirectoryChosen(second)))
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("a copy in the second folder") { $0.downloads.totals.done == 1 && $0.downloads.items.first?.directory == second }
                #expect(session.state.downloads.items.count == 1)
            }
            #expect(listing(first).count == 1)
            #expect(listing(second).count == 1)
        }
    }

    @Test @MainActor func aBatchThatWouldNotFitIsRefusedWithTheFigures() {
        var state = Sample.state([Sample.photo(1, "a.jpg", bytes: 3_000_000), Sample.photo(2, "b.jpg", bytes: 2_000_000)])
        _ = state.apply(.selection(.allMatchingSelected))
        let effects = state.apply(.downloads(.downloadRequested))
        guard case .checkSpace(let items, _, let needed) = effects.last else {
            Issue.record("expected a space check, got \(effects)")
            return
        }
        #expect(needed == 5_000_000)
        _ = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: 1_000_000)))
        #expect(state.downloads.items.isEmpty)
        #expect(state.messages.current?.text.hasPrefix("Not enough space in /tmp/photopick-test-downloads: 5 MB needed, 1 MB free.") == true)
        let accepted = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: 10_000_000)))
        #expect(state.downloads.items.count == 2)
        #expect(accepted.filter { if case .startDownload = $0 { true } else { false } }.count == 2)
    }

    @Test @MainActor func concurrencyBoundsRunningItemsAndPauseResumeCancelWorkPerItem() {
        var state = Sample.state((1...6).map { Sample.photo($0, "\($0).jpg", takenAt: Double($0)) })
        _ = state.apply(.downloads(.concurrencyChanged(by: -2)))
        _ = state.apply(.selection(.allMatchingSelected))
        guard case .checkSpace(let items, _, let needed) = state.apply(.downloads(.downloadRequested)).last else { return }
        _ = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: nil)))
        #expect(state.downloads.totals.running == 2)
        #expect(state.downloads.totals.queued == 4)
        let first = state.downloads.items[0].id
        let paused = state.apply(.downloads(.downloadPaused(id: first)))
        #expect(paused.contains(.stopDownload(id: first)))
        #expect(state.downloads.totals.running == 2)  // the next queued one took its slot
        #expect(state.downloads.totals.paused == 1)
        _ = state.apply(.downloads(.downloadCancelled(id: state.downloads.items[5].id)))
        #expect(state.downloads.items.count == 5)
        _ = state.apply(.downloads(.downloadResumed(id: first)))
        #expect(state.downloads.item(id: first)?.status == .queued)
        // A stale report from the paused run is ignored.
        _ = state.apply(.downloads(.downloadFailed(id: first, run: 1, reason: "cancelled")))
        #expect(state.downloads.item(id: first)?.status == .queued)
    }

    @Test @MainActor func queueSurvivesAKillAndResumesFromThePartFile() async throws {
        let stateDirectory = TestServer.temporaryDirectory(), downloads = TestServer.temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(at: stateDirectory)
            try? FileManager.default.removeItem(at: downloads)
        }
        // Every file body from this server is cut in half, so a download creeps forward a piece at a time.
        let stingy = try await TestServer.start(photos: 5, seed: 11) { configuration in
            configuration.faultRate = 1
            configuration.faults = [.truncate]
            configuration.originalMegapixels = 2
        }
        try await withSession(stingy, state: stateDirectory, downloads: downloads, library: "same") { session in
            try await session.waitForLibrary()
            session.send(.downloads(.downloadRequested))
            try await session.waitUntil("the first photo") { $0.downloads.totals.done == 1 }
            session.send(.browsing(.cursorMoved(.down)))
            session.send(.downloads(.downloadRequested))
            try await session.waitUntil("part of the second photo") { state in
                state.downloads.items.count == 2 && state.downloads.items[1].receivedBytes > 0
            }
            // Stopping here writes nothing more, as a kill -9 would.
        }
        await stingy.stop()
        let partial = try #require(listing(downloads).first { $0.hasSuffix(".part") })
        let partialBytes = try #require(try FileManager.default.attributesOfItem(atPath: downloads.appending(path: partial).path)[.size] as? Int)
        #expect(partialBytes > 0)

        let log = LineLog()
        try await TestServer.with(photos: 5, seed: 11, { configuration in
            configuration.originalMegapixels = 2
            configuration.requestLog = { log.append($0) }
        }) { server, _ in
            try await withSession(server, state: stateDirectory, downloads: downloads, library: "same") { session in
                #expect(session.state.downloads.items.map(\.status) == [.done, .running])
                try await session.waitUntil("the resumed download") { $0.downloads.totals.done == 2 }
                let resumed = session.state.downloads.items[1]
                #expect(resumed.resumedFrom == Int64(partialBytes))
            }
        }
        // The finished photo was not fetched again: one download request, for the second photo.
        #expect(log.lines.filter { $0.hasPrefix("GET /api/v1/photos/") && $0.contains("/download") }.count == 1)
        #expect(listing(downloads).count == 2)
        #expect(!listing(downloads).contains { $0.hasSuffix(".part") })
    }

    @Test @MainActor func cancellingADownloadRemovesItAndItsPartialFile() async throws {
        let downloads = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: downloads) }
        try await TestServer.with(photos: 3, { configuration in
            configuration.faultRate = 1
            configuration.faults = [.truncate]
            configuration.originalMegapixels = 2
        }) { server, _ in
            try await withSession(server, downloads: downloads) { session in
                try await session.waitForLibrary()
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("part of the photo") { $0.downloads.items.first.map { $0.receivedBytes > 0 } ?? false }
                #expect(listing(downloads).contains { $0.hasSuffix(".part") })
                session.send(.downloads(.allDownloadsCancelled))
                #expect(session.state.downloads.items.isEmpty)
                // The file system is not part of the state: the session says when its discards have run.
                await session.partialDiscardsEnded()
                #expect(listing(downloads).isEmpty, "the partial file goes")
            }
        }
    }
}
