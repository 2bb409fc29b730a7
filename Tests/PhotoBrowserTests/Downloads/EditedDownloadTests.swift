import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// A finished download counts as already there only while its bytes are as photopick wrote them. One the
/// user edited since is theirs: kept byte for byte, never overwritten, and the photo fetched again beside it.
@MainActor @Suite(.timeLimit(.minutes(2)))
struct EditedDownloadTests {
    private func editInPlace(_ path: String) throws -> (bytes: Data, modified: Date) { try FileEdits.editKeepingLengthAndDate(path) }

    private func secondName(_ path: String) -> String { FileEdits.secondName(path) }

    private func downloads(_ log: LineLog) -> Int {
        log.requests("GET /api/v1/photos/").count { $0.contains("/download") }
    }

    /// Asks for the photo and waits for the answer: the check done and the photo's item finished.
    private func get(_ photoID: Int, into root: URL, _ session: BrowserSession) async throws -> DownloadItem {
        session.send(.downloads(.scriptDownloadRequested([ScriptDownload(photoID: photoID)], variant: .original, root: root)))
        try await session.waitUntil("the photo") { state in
            state.downloads.fileChecksUnderWay == 0 && state.downloads.item(photoID: photoID, variant: .original)?.status.isFinished == true
        }
        return try #require(session.state.downloads.item(photoID: photoID, variant: .original))
    }

    @Test func aDownloadEditedInPlaceIsKeptAndThePhotoFetchedAgainBesideIt() async throws {
        let log = LineLog()
        try await TestServer.with(photos: 10, { $0.requestLog = { log.append($0) } }) { server, _ in
            let root = makeDownloadDirectory()
            try await withSession(server, downloads: root) { session in
                try await session.waitForLibrary()
                let photo = session.state.library[0]
                let first = try await get(photo.id, into: root, session)
                let path = try #require(first.resultPath)
                let original = try Data(contentsOf: URL(fileURLWithPath: path))
                let (edited, modified) = try editInPlace(path)

                let again = try await get(photo.id, into: root, session)
                #expect(again.status == .done && again.resultPath == secondName(path))
                #expect(try Data(contentsOf: URL(fileURLWithPath: secondName(path))) == original)
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == edited, "the edit is untouched, byte for byte")
                #expect(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date == modified)
                #expect(session.state.downloads.keptFiles == [path], "named once")
                #expect(try session.writtenFiles(under: root).map(\.path) == [secondName(path)], "the edited file is the user's now")
                #expect(downloads(log) == 2)
                // Asked once more: both files as they are, nothing fetched, nothing named again.
                _ = try await get(photo.id, into: root, session)
                #expect(downloads(log) == 2 && session.state.downloads.keptFiles == [path])
                #expect(Set(listing(root)) == [photo.filename, (secondName(path) as NSString).lastPathComponent])
            }
        }
    }

    @Test func theBrowserCountsTheEditedDownloadsItKeeps() async throws {
        try await TestServer.with(photos: 10) { server, _ in
            let root = makeDownloadDirectory()
            try await withSession(server, downloads: root) { session in
                try await session.waitForLibrary()
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("the download") { $0.downloads.totals.done == 1 }
                let path = try #require(session.state.downloads.items.first?.resultPath)
                _ = try editInPlace(path)
                session.send(.downloads(.downloadRequested))
                try await session.waitUntil("the photo fetched again") { $0.downloads.totals.done == 1 && $0.downloads.items.first?.resultPath == secondName(path) }
                #expect(session.state.messages.all.contains { $0.text == "Kept \(path): it changed since it was downloaded; fetching the photo again." })
            }
        }
    }

    @Test func anIntactDownloadIsThereWithoutARequestAndItsStampSparesTheNextRead() async throws {
        let log = LineLog()
        try await TestServer.with(photos: 10, { $0.requestLog = { log.append($0) } }) { server, _ in
            let root = makeDownloadDirectory()
            // A stamp is kept only for a file that last changed well before the check (FileStamp.settling,
            // two seconds): this test's file may have changed just before, as written.
            try await withSession(server, downloads: root, stampSettling: .zero) { session in
                try await session.waitForLibrary()
                let photo = session.state.library[1]
                let first = try await get(photo.id, into: root, session)
                let path = try #require(first.resultPath)
                #expect(try session.writtenFiles(under: root).first?.verified == nil, "not checked yet")

                let again = try await get(photo.id, into: root, session)
                #expect(again.id == first.id && again.status == .done, "already there")
                #expect(downloads(log) == 1, "no request for a file found as written")
                let record = try #require(try session.writtenFiles(under: root).first)
                let stamp = try #require(record.verified, "the check that hashed it intact kept its stamp")
                #expect(stamp.size == record.length && stamp.inode == record.inode && stamp.device == record.device)

                // Same length, mtime put back: only the ctime moved, and the stamp no longer vouches for it.
                let (edited, _) = try editInPlace(path)
                let third = try await get(photo.id, into: root, session)
                #expect(third.resultPath == secondName(path) && downloads(log) == 2)
                #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == edited)
                #expect(session.state.downloads.keptFiles == [path])
            }
        }
    }
}
