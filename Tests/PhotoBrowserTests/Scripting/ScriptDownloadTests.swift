import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import PhotoPickTestSupport
import Testing

/// A script's downloads join the browser's queue: what the browser queued is carried on, never queued twice.
@MainActor @Suite(.timeLimit(.minutes(2)))
struct ScriptDownloadTests {
    private let root = URL(fileURLWithPath: "/tmp/photopick-test-downloads")

    private func spaceChecked(_ effects: [BrowserEffect], into state: inout BrowserState) -> [DownloadItem] {
        guard case .checkSpace(let items, _, let needed) = effects.last else { return [] }
        _ = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: nil)))
        return items
    }

    @Test func aScriptCarriesOnWhatTheBrowserQueuedPausedOrFailed() {
        var state = Sample.state((1...4).map { Sample.photo($0, "\($0).jpg") })
        _ = state.apply(.downloads(.concurrencyChanged(by: 8)))
        // In the browser: photos 1 to 3 queued; the user pauses 1, and 2 fails.
        for _ in 1...3 { _ = state.apply(.selection(.selectionToggledAndAdvanced)) }
        #expect(spaceChecked(state.apply(.downloads(.downloadRequested)), into: &state).count == 3)
        let items = state.downloads.items
        _ = state.apply(.downloads(.downloadPaused(id: items[0].id)))
        _ = state.apply(.downloads(.downloadFailed(id: items[1].id, run: items[1].run, reason: "HTTP 503")))
        #expect(state.downloads.item(id: items[0].id)?.status == .paused)
        #expect(state.downloads.item(id: items[1].id)?.status.failure != nil)

        // A get of all four into the same folder.
        let effects = state.apply(.downloads(.scriptDownloadRequested((1...4).map { ScriptDownload(photoID: $0) }, variant: .original, root: root)))
        #expect(state.downloads.item(id: items[0].id)?.status == .running, "the paused one goes on")
        #expect(state.downloads.item(id: items[1].id)?.status == .running, "the failed one is tried again")
        #expect(state.downloads.item(id: items[2].id)?.status == .running, "the running one is left running")
        let new = spaceChecked(effects, into: &state)
        #expect(new.map(\.photoID) == [4], "only the photo not yet queued is new")
        #expect(state.downloads.items.count == 4)
        #expect(Set(state.downloads.items.map(\.photoID)).count == 4, "no photo queued twice")
    }

    @Test func aTemplatePlacesEachFileInItsFolderUnderItsName() {
        var state = Sample.state((1...2).map { Sample.photo($0, "\($0).jpg") })
        let wanted = [ScriptDownload(photoID: 1, folders: ["2024", "2024-06-01"], filename: "first.jpg"), ScriptDownload(photoID: 2)]
        let new = spaceChecked(state.apply(.downloads(.scriptDownloadRequested(wanted, variant: .web, root: root))), into: &state)
        #expect(new.map(\.directory.path) == [root.path + "/2024/2024-06-01", root.path])
        #expect(new.map(\.filename) == ["first.jpg", "2.jpg"])
        #expect(new.allSatisfy { $0.variant == .web })
        // Asked again, nothing is queued twice.
        let again = state.apply(.downloads(.scriptDownloadRequested(wanted, variant: .web, root: root)))
        #expect(!again.contains { if case .checkSpace = $0 { true } else { false } })
        #expect(state.downloads.items.count == 2)
    }
}

/// A download goes where it is asked for now: asked again into another folder, it moves there.
@MainActor
struct DownloadFolderTests {
    @Test func aFailedPausedOrQueuedItemAskedIntoAnotherFolderMovesThereWithItsPartial() {
        var state = Sample.state((1...3).map { Sample.photo($0, "\($0).jpg") })
        let old = URL(fileURLWithPath: "/tmp/photopick-old"), new = URL(fileURLWithPath: "/tmp/photopick-new")
        let wanted = (1...3).map { ScriptDownload(photoID: $0) }
        let effects = state.apply(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: old)))
        guard case .checkSpace(let items, _, let needed) = effects.last else { Issue.record("no space check"); return }
        _ = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: nil)))
        let first = state.downloads.items
        _ = state.apply(.downloads(.downloadPaused(id: first[0].id)))
        _ = state.apply(.downloads(.downloadFailed(id: first[1].id, run: first[1].run, reason: "cannot create the folder")))

        let again = state.apply(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: new)))
        #expect(again.contains(.stopDownload(id: first[2].id)), "the running one stops")
        #expect(again.contains { if case .deleteDownloads(let gone, true) = $0 { Set(gone.map(\.id)) == Set(first.map(\.id)) } else { false } })
        #expect(!again.contains { if case .saveDownloads = $0 { true } else { false } }, "nothing is retried or resumed in the old folder")
        guard case .checkSpace(let moved, let folder, _) = again.last else { Issue.record("nothing queued anew"); return }
        #expect(folder == new && moved.map(\.photoID) == [1, 2, 3] && moved.allSatisfy { $0.isIn(new) })
    }

    @Test func theBrowsersDownloadAfterAChangeOfFolderMovesAFailedItem() {
        var state = Sample.state([Sample.photo(1, "1.jpg")])
        let effects = state.apply(.downloads(.downloadRequested))
        guard case .checkSpace(let items, _, let needed) = effects.last else { Issue.record("no space check"); return }
        _ = state.apply(.downloads(.downloadSpaceChecked(items, needed: needed, free: nil)))
        let item = state.downloads.items[0]
        _ = state.apply(.downloads(.downloadFailed(id: item.id, run: item.run, reason: "HTTP 503")))
        let elsewhere = URL(fileURLWithPath: "/tmp/photopick-elsewhere")
        _ = state.apply(.downloads(.downloadDirectoryChosen(elsewhere)))
        let again = state.apply(.downloads(.downloadRequested))
        guard case .checkSpace(let moved, let folder, _) = again.last else { Issue.record("nothing queued anew"); return }
        #expect(folder == elsewhere && moved.first?.isIn(elsewhere) == true)
        #expect(state.downloads.item(id: item.id) == nil, "the old item is gone, not retried")
    }

    @Test func aGetThatFailedOnAFileInItsPathGoesIntoTheNewFolderAndRecreatesNothing() async throws {
        try await TestServer.with(photos: 10) { server, _ in
            let base = makeDownloadDirectory()
            let blocker = base.appending(path: "blocked")
            try Data("a file, not a folder".utf8).write(to: blocker)
            let bad = blocker.appending(path: "sub"), good = base.appending(path: "good")
            try await withSession(server, downloads: base) { session in
                try await session.waitForLibrary()
                let photo = session.state.library[0]
                let wanted = [ScriptDownload(photoID: photo.id)]
                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: bad)))
                try await session.waitUntil("the failure") { $0.downloads.item(photoID: photo.id, variant: .original)?.status.failure != nil }
                try FileManager.default.removeItem(at: blocker)
                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: good)))
                try await session.waitUntil("the download") { $0.downloads.item(photoID: photo.id, variant: .original)?.status.isFinished == true }
                #expect(session.state.downloads.item(photoID: photo.id, variant: .original)?.resultPath == good.appending(path: photo.filename).path)
                await session.partialDiscardsEnded()  // the old partial's discarding, had it made anything
                #expect(!FileManager.default.fileExists(atPath: blocker.path), "the old folder is not made again")
                #expect(listing(base) == ["good"])
            }
        }
    }
}
