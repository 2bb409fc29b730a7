import Foundation
@testable import PhotoBrowser
@testable import PhotoPickCommands
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// `sync --delete` deletes only files photopick recorded writing whose bytes still hash to the record:
/// never the user's copies, and never a download edited since, whatever its length, date or capture time.
@MainActor @Suite(.timeLimit(.minutes(2)))
struct SyncPlanTests {
    /// A photo's original bytes, fetched apart from the session.
    private func bytes(of id: Int, _ server: PhotoPickServer) async throws -> Data {
        let client = APIClient.forTesting(server)
        defer { Task { try? await client.shutdown() } }
        let photo = try await client.send(API.photo(id: id))
        return try Data(contentsOf: try await client.download(photo: photo, into: makeDownloadDirectory()).fileURL)
    }

    @Test func deletesOnlyWhatItWroteAsWrittenAndKeepsTheUsersFilesAndEdits() async throws {
        try await TestServer.with(photos: 300) { server, _ in
            let root = makeDownloadDirectory()
            try await withSession(server, downloads: root) { session in
                try await session.waitForLibrary()
                let library = session.state.library
                let photos = (0..<library.count).map { library[$0] }
                let undated = try #require(photos.first { $0.takenAt == nil }, "the demo library has undated photos")
                let dated = photos.filter { $0.takenAt != nil && $0.filename != undated.filename }
                let (ours, copied, clashing) = (dated[0], dated[1], dated[2])
                // The user's byte-identical copy of one photo, and their own different file under another's name.
                let copy = root.appending(path: copied.filename)
                try await bytes(of: copied.id, server).write(to: copy)
                let mine = root.appending(path: clashing.filename)
                try Data("mine".utf8).write(to: mine)

                let wanted = [ours, undated, copied, clashing].map { ScriptDownload(photoID: $0.id) }
                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: root)))
                try await session.waitUntil("the four downloads") { state in
                    wanted.allSatisfy { state.downloads.item(photoID: $0.photoID, variant: .original)?.status.isFinished == true }
                }
                #expect(session.state.downloads.item(photoID: copied.id, variant: .original)?.status == .skipped)
                let written = try session.writtenFiles(under: root)
                let clashed = FileEdits.secondName(root.appending(path: clashing.filename).path)
                #expect(Set(written.map(\.path)) == [root.appending(path: ours.filename).path, root.appending(path: undated.filename).path, clashed],
                        "the user's identical copy is never recorded as photopick's")

                // The undated download edited as exiftool -P does: same length, date put back.
                let edited = root.appending(path: undated.filename)
                try FileEdits.editKeepingLengthAndDate(edited.path)

                // Nothing matches any more.
                let plan = SyncPlan(wanted: [], variant: .original, root: root, state: session.state, written: written, deleting: true)
                #expect(Set(plan.deletions.map(\.path)) == [root.appending(path: ours.filename).path, clashed])
                #expect(plan.kept.map(\.path) == [edited.path])
                #expect(plan.lines.filter { $0.hasPrefix("delete ") }.count == 2 && plan.lines.contains("keep " + edited.path))
                #expect(!plan.lines.contains { $0.hasSuffix(copy.path) || $0.hasSuffix(mine.path) }, "the user's files are in no line")
            }
        }
    }

    @Test func theDryRunsGetLinesNameTheFileTheRunWrites() async throws {
        try await TestServer.with(photos: 20) { server, _ in
            let root = makeDownloadDirectory()
            try await withSession(server, downloads: root) { session in
                try await session.waitForLibrary()
                let photo = session.state.library[0]
                try Data("mine".utf8).write(to: root.appending(path: photo.filename))
                let wanted = [ScriptDownload(photoID: photo.id)]
                let plan = SyncPlan(wanted: wanted, variant: .original, root: root, state: session.state, written: [], deleting: true)
                let planned = try #require(plan.fetches.first?.path)
                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: root)))
                try await session.waitUntil("the download") { $0.downloads.item(photoID: photo.id, variant: .original)?.status.isFinished == true }
                #expect(session.state.downloads.item(photoID: photo.id, variant: .original)?.resultPath == planned)
                let again = SyncPlan(wanted: wanted, variant: .original, root: root, state: session.state, written: try session.writtenFiles(under: root), deleting: true)
                #expect(again.lines.isEmpty && again.inPlace == 1)
                // "mine" is not the photo's length: no line says it might be the photo.
                #expect(plan.fetches.first?.unlessIdentical == [])
            }
        }
    }

    /// A file of the photo's length under its name may be the photo: the dry run says the real run's digest
    /// decides, and the real run then finds it identical and writes nothing.
    @Test func theDryRunNamesAFileTheDigestMayShowIdentical() async throws {
        try await TestServer.with(photos: 20) { server, _ in
            let root = makeDownloadDirectory()
            try await withSession(server, downloads: root) { session in
                try await session.waitForLibrary()
                let photo = session.state.library[0]
                let copy = root.appending(path: photo.filename)
                try await bytes(of: photo.id, server).write(to: copy)
                let wanted = [ScriptDownload(photoID: photo.id)]
                let plan = SyncPlan(wanted: wanted, variant: .original, root: root, state: session.state, written: [], deleting: true)
                #expect(plan.fetches.first?.unlessIdentical == [copy.path])
                #expect(plan.lines.first?.hasSuffix("(unless the server's digest shows \(copy.path) holds it already)") == true)
                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: root)))
                try await session.waitUntil("the download") { $0.downloads.item(photoID: photo.id, variant: .original)?.status.isFinished == true }
                #expect(session.state.downloads.item(photoID: photo.id, variant: .original)?.status == .skipped)
                #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasPrefix(".") } == [photo.filename])
            }
        }
    }
    /// A download of ours edited since, in a folder that still wants the photo: the plan keeps it and gets the
    /// photo under the next free name, and the real run writes exactly that name and leaves the edit alone.
    @Test func anEditedDownloadStillWantedIsKeptAndThePlansGetNamesTheFileTheRunWrites() async throws {
        try await TestServer.with(photos: 20) { server, _ in
            let root = makeDownloadDirectory()
            try await withSession(server, downloads: root) { session in
                try await session.waitForLibrary()
                let photo = session.state.library[0]
                let wanted = [ScriptDownload(photoID: photo.id)]
                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: root)))
                try await session.waitUntil("the download") { $0.downloads.item(photoID: photo.id, variant: .original)?.status == .done }
                let edited = root.appending(path: photo.filename)
                let data = try FileEdits.editKeepingLengthAndDate(edited.path).bytes

                let plan = SyncPlan(wanted: wanted, variant: .original, root: root, state: session.state, written: try session.writtenFiles(under: root), deleting: false)
                let second = FileEdits.secondName(root.appending(path: photo.filename).path)
                #expect(plan.lines == ["get " + second, "keep " + edited.path], "the edit cannot be the photo: no 'unless' on the get line")
                #expect(plan.inPlace == 0 && plan.keptAndFetchedAgain.map(\.path) == [edited.path])

                session.send(.downloads(.scriptDownloadRequested(wanted, variant: .original, root: root)))
                try await session.waitUntil("the photo fetched again") { state in
                    state.downloads.fileChecksUnderWay == 0 && state.downloads.item(photoID: photo.id, variant: .original)?.status == .done
                        && state.downloads.item(photoID: photo.id, variant: .original)?.resultPath != edited.path
                }
                #expect(session.state.downloads.item(photoID: photo.id, variant: .original)?.resultPath == second)
                #expect(try Data(contentsOf: edited) == data)
                let again = SyncPlan(wanted: wanted, variant: .original, root: root, state: session.state, written: try session.writtenFiles(under: root), deleting: false)
                #expect(again.lines.isEmpty && again.inPlace == 1, "the record of the edit is gone: it is the user's, and named no more")
            }
        }
    }
}
