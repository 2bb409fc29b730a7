import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

@Suite(.timeLimit(.minutes(1))) struct LoadingTests {
    @Test @MainActor func firstPageIsBrowsableBeforeTheRestOf5000Arrive() async throws {
        try await TestServer.with(photos: 5_000) { server, _ in
            var firstPage: BrowserState?
            try await withSession(server, { event, state in
                if case .report(.catalogue(.photosArrived)) = event, firstPage == nil { firstPage = state }
            }) { session in
                try await session.waitForLibrary()
                #expect(session.state.library.count == 5_000)
                // Every photo listed, a RAW+JPEG pair as one row (the demo has some).
                #expect(session.state.library.pairs.count > 0)
                #expect(session.state.list.count == 5_000 - session.state.library.pairs.count)
                #expect(session.state.loadSummary == "5,000 photos")
                #expect(Set((0..<5_000).map { session.state.library[$0].id }).count == 5_000)
            }
            var early = try #require(firstPage)
            #expect(early.library.count == 100)
            #expect(early.loading.phase == .loading)
            #expect(early.loadSummary == "100 of ? loaded…")
            _ = early.apply(.browsing(.cursorMoved(.pageDown)))
            #expect(early.currentPhoto != nil)
        }
    }

    @Test @MainActor func aFailedWalkKeepsWhatLoadedAndRetryResumesFromTheLastCursor() async throws {
        let log = LineLog()
        try await TestServer.with(photos: 1_000, { configuration in
            configuration.faultRate = 0.2
            configuration.faults = [.internalError]
            configuration.requestLog = { log.append($0) }
        }) { server, _ in
            try await withSession(server, retryPolicy: .never) { session in
                try await session.waitUntil("the catalogue to be read") { $0.loading.isCatalogueRead }
                var failures = 0
                while session.state.loading.phase != .complete {
                    try await session.waitUntil("loading to stop") { $0.loading.phase != .loading }
                    if case .failed = session.state.loading.phase {
                        failures += 1
                        #expect(session.state.loading.canRetry)
                        let kept = session.state.library.count
                        session.send(.catalogue(.loadingRetried))
                        #expect(session.state.library.count == kept)
                    }
                }
                #expect(failures > 0)
                #expect(session.state.library.count == 1_000)
            }
            // Ten pages, each fetched successfully once: every retry resumed where the walk stopped.
            #expect(log.lines.filter { $0.hasPrefix("GET /api/v1/photos 200") }.count == 10)
        }
    }

    @Test @MainActor func loadingCanBeCancelledAndResumed() async throws {
        try await TestServer.with(photos: 3_000) { server, _ in
            try await withSession(server) { session in
                try await session.waitUntil("a first page") { $0.library.count > 0 }
                session.send(.catalogue(.loadingCancelled))
                #expect(session.state.loading.phase == .cancelled)
                let stoppedAt = session.state.library.count
                // A page in hand when it was paused stays out: once the walk has ended, nothing came.
                await session.stoppedWalksEnded()
                #expect(session.state.library.count == stoppedAt)
                session.send(.catalogue(.loadingRetried))
                try await session.waitForLibrary()
                #expect(session.state.library.count == 3_000)
            }
        }
    }
}
