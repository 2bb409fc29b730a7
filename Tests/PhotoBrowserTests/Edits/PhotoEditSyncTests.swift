import Foundation
import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// Photo edits go through their outbox like tag writes: shown at once, written before the key returns,
/// sent under faults, replayed after a restart exactly once, undone by sending the old values.
@Suite(.timeLimit(.minutes(2))) struct PhotoEditSyncTests {
    private func serverPhotos(_ server: PhotoPickServer, ids: [Int]) async throws -> [Int: Photo] {
        let client = APIClient.forTesting(server)
        defer { Task { try? await client.shutdown() } }
        var photos: [Int: Photo] = [:]
        for id in ids { photos[id] = try await client.send(API.photo(id: id)) }
        return photos
    }

    @Test @MainActor func renamesRetitlesAndShiftsUnderFaultsReachTheServerAndReorderAtOnce() async throws {
        try await TestServer.with(photos: 40, { configuration in
            configuration.faultRate = 0.2
            configuration.faults = [.internalError, .unavailable, .reset]
        }) { server, _ in
            let before = try await serverPhotos(server, ids: Array(1...20))
            try await withSession(server) { session in
                try await session.waitForLibrary()
                session.send(.browsing(.sortChosen(.captureTime)))
                let first = session.state.list.libraryIndices.first.map { session.state.library.id(at: $0) }
                var changes = (1...20).map { PhotoFieldChange(photoID: $0, field: .filename, value: "renamed_\($0).jpg") }
                changes.append(PhotoFieldChange(photoID: 3, field: .title, value: "Harbour\tat dusk\n"))
                // The last photo by capture time goes back ten years: it leads the list at once.
                let last = try #require(Array(session.state.list.libraryIndices).last.map { session.state.library.id(at: $0) })
                let lastTaken = try #require(session.state.library.photo(at: session.state.library.index(ofID: last)!).takenAt)
                changes.append(PhotoFieldChange(photoID: last, field: .takenAt, value: ISO8601String(lastTaken.addingTimeInterval(-3650 * 86_400))))
                session.send(.edits(.photosEdited(changes)))
                #expect(session.state.unsentPhotoEdits == 22)
                #expect(session.state.list.libraryIndices.first.map { session.state.library.id(at: $0) } == last)
                #expect(first != last)
                #expect(session.state.currentPhoto != nil)
                try await session.waitUntil("every edit to be sent") { $0.unsentPhotoEdits == 0 }
                #expect(session.state.messages.all.allSatisfy { $0.severity != .error })
            }
            let after = try await serverPhotos(server, ids: Array(1...20))
            for id in 1...20 { #expect(after[id]?.filename == "renamed_\(id).jpg") }
            #expect(after[3]?.title == "Harbour\tat dusk\n")
            #expect(after[5]?.title == before[5]?.title)
        }
    }

    @Test @MainActor func anEditMadeOfflineIsReplayedOnceAndWinsOverAChangeMadeElsewhere() async throws {
        let stateDirectory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: stateDirectory) }
        try await TestServer.with(photos: 10) { server, _ in
            let client = APIClient.forTesting(server)
            defer { Task { try? await client.shutdown() } }
            let photo = try await client.send(API.photo(id: 4))
            let unreachable = try await TestServer.start(photos: 1)
            await unreachable.stop()
            try await withSession(unreachable, key: server.demoKey, state: stateDirectory, retryPolicy: .never) { session in
                session.report(.catalogue(.photosArrived([photo], nextCursor: nil)))
                session.send(.edits(.photosEdited([PhotoFieldChange(photoID: 4, field: .title, value: "first")])))
                session.send(.edits(.photosEdited([PhotoFieldChange(photoID: 4, field: .title, value: "mine")])))
                #expect(session.state.unsentPhotoEdits == 1)
                #expect(session.state.currentPhoto?.title == "mine")
            }
            // Meanwhile the web app changes the title.
            _ = try await client.send(API.updatePhoto(id: 4, PhotoUpdate(title: .some("theirs"))))
            try await withSession(server, state: stateDirectory) { session in
                try await session.waitUntil("the replay") { $0.unsentPhotoEdits == 0 && $0.library.index(ofID: 4) != nil }
                try await session.waitUntil("the note that theirs was replaced") { state in
                    state.messages.all.contains { $0.text.contains("title of") && $0.text.contains("your edit replaced it") }
                }
                let index = try #require(session.state.library.index(ofID: 4))
                #expect(session.state.library.photo(at: index).title == "mine")
            }
            #expect(try await client.send(API.photo(id: 4)).title == "mine")
            // A third start finds nothing left to send.
            try await withSession(server, state: stateDirectory) { session in
                #expect(session.state.unsentPhotoEdits == 0)
            }
        }
    }

    @Test @MainActor func undoSendsTheOldValuesAndARefusedNameIsTakenBackWithOneLine() async throws {
        try await TestServer.with(photos: 10) { server, _ in
            let before = try await serverPhotos(server, ids: [2, 6])
            try await withSession(server) { session in
                try await session.waitForLibrary()
                session.send(.edits(.photosEdited([
                    PhotoFieldChange(photoID: 2, field: .title, value: "Harbour at dusk"),
                    PhotoFieldChange(photoID: 2, field: .description, value: "Long exposure"),
                ])))
                try await session.waitUntil("the edit sent") { $0.unsentPhotoEdits == 0 }
                session.send(.undoRequested)
                #expect(session.state.library.photo(at: session.state.library.index(ofID: 2)!).title == before[2]?.title)
                try await session.waitUntil("the undo sent") { $0.unsentPhotoEdits == 0 }
                let tooLong = String(repeating: "n", count: 300) + ".jpg"
                session.send(.edits(.photosEdited([PhotoFieldChange(photoID: 6, field: .filename, value: tooLong)])))
                #expect(session.state.library.photo(at: session.state.library.index(ofID: 6)!).filename == tooLong)
                try await session.waitUntil("the refusal") { $0.unsentPhotoEdits == 0 }
                let refusal = try #require(session.state.messages.all.last { $0.severity == .error })
                #expect(refusal.text.contains("file name"))
                #expect(refusal.text.contains("255"))
                #expect(!refusal.text.contains("\n"))
                #expect(session.state.library.photo(at: session.state.library.index(ofID: 6)!).filename == before[6]?.filename)
            }
            let after = try await serverPhotos(server, ids: [2, 6])
            #expect(after[2]?.title == before[2]?.title)
            #expect(after[2]?.description == before[2]?.description)
            #expect(after[6]?.filename == before[6]?.filename)
        }
    }
}

private func ISO8601String(_ date: Date) -> String {
    PhotoField.takenAt.value(of: Photo(id: 0, filename: "", bytes: 0, takenAt: date, tagIDs: [])) ?? ""
}
