import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing

/// A script's downloads join the browser's queue: what the browser queued is carried on, never queued twice.
@MainActor
struct ScriptDownloadTests {
    private let root = URL(fileURLWithPath: "/tmp/photopick-test-downloads")

    private func spaceChecked(_ effects: [BrowserEffect], into state: inout BrowserState) -> [DownloadItem] {
        guard case .checkSpace(let items, _, let needed) = effects.last else { return [] }
        _ = state.apply(.downloadSpaceChecked(items, needed: needed, free: nil))
        return items
    }

    @Test func aScriptCarriesOnWhatTheBrowserQueuedPausedOrFailed() {
        var state = Sample.state((1...4).map { Sample.photo($0, "\($0).jpg") })
        _ = state.apply(.concurrencyChanged(by: 8))
        // In the browser: photos 1 to 3 queued; the user pauses 1, and 2 fails.
        for _ in 1...3 { _ = state.apply(.selectionToggledAndAdvanced) }
        #expect(spaceChecked(state.apply(.downloadRequested), into: &state).count == 3)
        let items = state.downloads.items
        _ = state.apply(.downloadPaused(id: items[0].id))
        _ = state.apply(.downloadFailed(id: items[1].id, run: items[1].run, reason: "HTTP 503"))
        #expect(state.downloads.item(id: items[0].id)?.status == .paused)
        #expect(state.downloads.item(id: items[1].id)?.status.failure != nil)

        // A get of all four into the same folder.
        let effects = state.apply(.scriptDownloadRequested((1...4).map { ScriptDownload(photoID: $0) }, variant: .original, root: root))
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
        let new = spaceChecked(state.apply(.scriptDownloadRequested(wanted, variant: .web, root: root)), into: &state)
        #expect(new.map(\.directory.path) == [root.path + "/2024/2024-06-01", root.path])
        #expect(new.map(\.filename) == ["first.jpg", "2.jpg"])
        #expect(new.allSatisfy { $0.variant == .web })
        // Asked again, nothing is queued twice.
        let again = state.apply(.scriptDownloadRequested(wanted, variant: .web, root: root))
        #expect(!again.contains { if case .checkSpace = $0 { true } else { false } })
        #expect(state.downloads.items.count == 2)
    }
}
