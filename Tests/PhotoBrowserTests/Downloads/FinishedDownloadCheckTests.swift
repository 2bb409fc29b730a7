import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// A request for photos already downloaded reads no file in the reducer: it asks the session to check
/// their files, and goes on with what was found. Only a file as photopick wrote it is "already there".
@MainActor @Suite(.timeLimit(.minutes(2)))
struct FinishedDownloadCheckTests {
    private let folder = URL(fileURLWithPath: "/tmp/photopick-test-downloads")

    /// Photos 1 and 2, with photo 1 downloaded (done) into the folder as `1.jpg`; photo 1 under the cursor.
    private func stateWithOneDownloaded() -> (BrowserState, DownloadItem) {
        var item = DownloadItem(
            id: 7, photoID: 1, variant: .original, directory: folder, filename: "1.jpg", photoBytes: 1_000, takenAt: nil,
            mimeType: "image/jpeg", estimatedBytes: 1_000, status: .done
        )
        item.resultPath = folder.appending(path: "1.jpg").path
        var state = BrowserState(downloadDirectory: folder)
        _ = state.apply(.sessionStarted(outbox: [], nextSequence: 1, downloads: [item], nextDownloadID: 8))
        _ = state.apply(.tags(.tagsLoaded(Sample.tags)))
        _ = state.apply(.catalogue(.photosArrived([Sample.photo(1, "1.jpg"), Sample.photo(2, "2.jpg")], nextCursor: nil)))
        _ = state.apply(.catalogue(.photosFinished(deleted: [], at: Sample.now)))
        _ = state.apply(.browsing(.viewResized(rows: 10)))
        return (state, item)
    }

    private var request: DownloadRequest {
        DownloadRequest(origin: .browser, wanted: [ScriptDownload(photoID: 1)], variant: .original, root: folder)
    }

    @Test func aRequestForADownloadedPhotoAsksForItsFileToBeCheckedFirst() {
        var (state, item) = stateWithOneDownloaded()
        let effects = state.apply(.downloads(.downloadRequested))
        #expect(effects == [.checkFinishedDownloads([item], then: request)])
        #expect(state.downloads.fileChecksUnderWay == 1)
        #expect(state.downloads.items == [item], "nothing changes until the files are read")
        #expect(state.hasUnfinishedWork, "q asks first, so the request is not dropped while its files are read")
    }

    @Test func aScriptsRequestChecksOnlyItsFinishedItemsAndQueuesNothingMeanwhile() {
        var (state, item) = stateWithOneDownloaded()
        let wanted = [ScriptDownload(photoID: 1), ScriptDownload(photoID: 2)]
        let effects = state.apply(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: folder)))
        #expect(effects == [.checkFinishedDownloads([item], then: DownloadRequest(origin: .script, wanted: wanted, variant: .original, root: folder))])
        // Photo 2 alone, not downloaded: no check, queued at once as before.
        let alone = state.apply(.downloads(.scriptDownloadRequested([ScriptDownload(photoID: 2)], variant: .original, root: folder)))
        guard case .checkSpace(let items, _, _) = alone.last else { Issue.record("photo 2 not queued: \(alone)"); return }
        #expect(items.map(\.photoID) == [2])
    }

    @Test func anIntactFileIsAlreadyThere() {
        var (state, item) = stateWithOneDownloaded()
        _ = state.apply(.downloads(.downloadRequested))
        let effects = state.apply(.downloads(.finishedDownloadsChecked(FinishedDownloadCheck(checked: [item.id], intact: [item.id]), then: request)))
        #expect(!effects.contains { if case .checkSpace = $0 { true } else { false } })
        #expect(state.messages.current?.text == "Nothing new to download: 1 already downloaded.")
        #expect(state.downloads.items == [item] && state.downloads.fileChecksUnderWay == 0 && state.downloads.keptFiles.isEmpty)
    }

    @Test func aChangedFileIsKeptItsRecordForgottenAndThePhotoQueuedAgain() {
        var (state, item) = stateWithOneDownloaded()
        _ = state.apply(.downloads(.downloadRequested))
        let path = item.resultPath!
        let effects = state.apply(.downloads(.finishedDownloadsChecked(FinishedDownloadCheck(checked: [item.id], changed: [item.id: path]), then: request)))
        #expect(effects.first == .forgetWrittenFiles([path]))
        #expect(effects.contains(.deleteDownloads([item], discardPartials: false)), "the queue's row goes; the file stays")
        guard case .checkSpace(let queued, let directory, _) = effects.last else { Issue.record("not queued again: \(effects)"); return }
        #expect(queued.map(\.photoID) == [1] && queued[0].id != item.id && directory == folder)
        #expect(state.downloads.keptFiles == [path] && state.downloads.fileChecksUnderWay == 0)
        // Told once, after the news of what was queued, so it is what the status line shows.
        _ = state.apply(.downloads(.downloadSpaceChecked(queued, needed: 1_000, free: nil)))
        #expect(state.messages.current?.text == "Kept \(path): it changed since it was downloaded; fetching the photo again.")
        #expect(state.messages.current?.severity == .warning)
        _ = state.apply(.downloads(.downloadSpaceChecked(queued, needed: 1_000, free: nil)))
        #expect(state.messages.all.count { $0.text.hasPrefix("Kept ") } == 1)
        // A second check that ran alongside the first found the same file: not named again.
        _ = state.apply(.downloads(.finishedDownloadsChecked(FinishedDownloadCheck(checked: [item.id], changed: [item.id: path]), then: request)))
        #expect(state.downloads.keptFiles == [path])
    }

    @Test func aFileGoneOrNeverRecordedIsQueuedAgainWithNothingForgotten() {
        var (state, item) = stateWithOneDownloaded()
        _ = state.apply(.downloads(.downloadRequested))
        let effects = state.apply(.downloads(.finishedDownloadsChecked(FinishedDownloadCheck(checked: [item.id]), then: request)))
        #expect(!effects.contains { if case .forgetWrittenFiles = $0 { true } else { false } })
        guard case .checkSpace(let queued, _, _) = effects.last else { Issue.record("not queued again: \(effects)"); return }
        #expect(queued.map(\.photoID) == [1] && state.downloads.keptFiles.isEmpty)
    }

    @Test func anItemThatFinishedWhileTheCheckRanCountsAsThere() {
        var (state, _) = stateWithOneDownloaded()
        let effects = state.apply(.downloads(.finishedDownloadsChecked(FinishedDownloadCheck(), then: request)))
        #expect(effects.allSatisfy { if case .expireMessage = $0 { true } else { false } })
        #expect(state.messages.current?.text == "Nothing new to download: 1 already downloaded.")
    }

    @Test func theRequestAsAskedGoesOnWhateverTheCursorDidMeanwhile() {
        var (state, item) = stateWithOneDownloaded()
        _ = state.apply(.downloads(.downloadRequested))
        _ = state.apply(.browsing(.cursorMoved(.down)))
        let effects = state.apply(.downloads(.finishedDownloadsChecked(FinishedDownloadCheck(checked: [item.id], intact: [item.id]), then: request)))
        #expect(!effects.contains { if case .checkSpace = $0 { true } else { false } }, "photo 2, now under the cursor, was not asked for")
    }
}
