import Crypto
import Foundation
import NIOConcurrencyHelpers
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// A download tells what it wrote before the file is in place, and never takes a file it did not write
/// for its own: a user's `.part`, a user's copy, an edit that keeps the length and the date.
struct WrittenFileTests {
    /// The bytes of a photo's original, fetched into a folder of their own.
    private func bytes(of photo: Photo, _ client: APIClient) async throws -> Data {
        try Data(contentsOf: try await client.download(photo: photo, into: makeDownloadDirectory()).fileURL)
    }

    @Test func theRecordIsToldBeforeTheFileIsInPlaceAndMatchesItsBytes() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 2))
            let directory = makeDownloadDirectory()
            let told = NIOLockedValueBox<[(WrittenFile, Bool)]>([])
            let result = try await client.download(photo: photo, into: directory, willPlace: { file in
                told.withLockedValue { $0.append((file, FileManager.default.fileExists(atPath: file.path))) }
            })
            let records = told.withLockedValue { $0 }
            try #require(records.count == 1)
            let (record, wasThere) = records[0]
            #expect(!wasThere, "told before the file is under its name")
            let data = try Data(contentsOf: result.fileURL)
            #expect(record.path == result.fileURL.path && record.photoID == 2 && record.variant == "original")
            #expect(record.length == Int64(data.count) && record.sha256 == Array(SHA256.hash(data: data)))
            #expect(record.currentState() == .intact)
        }
    }

    @Test func aFailingRecordKeepsTheFileOutOfPlace() async throws {
        struct Refused: Error {}
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 3))
            let directory = makeDownloadDirectory()
            await #expect(throws: Refused.self) {
                try await client.download(photo: photo, into: directory, willPlace: { _ in throw Refused() })
            }
            #expect(listing(directory) == [".photopick." + photo.filename + ".part"], "the partial stays, to resume")
        }
    }

    @Test func aUsersOwnPartFileIsNeverResumedTruncatedOrRenamed() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let directory = makeDownloadDirectory()
            // The user's own half-copied file, under the name photopick's partials used to have.
            let users = directory.appending(path: photo.filename + ".part")
            let half = try await bytes(of: photo, client).prefix(Int(photo.bytes / 2))
            try half.write(to: users)
            let result = try await client.download(photo: photo, into: directory)
            #expect(result.outcome == .downloaded && result.resumedFrom == 0)
            #expect(try Data(contentsOf: users) == half, "the user's .part is as it was")
            #expect(Set(listing(directory)) == [photo.filename, photo.filename + ".part"])
        }
    }

    @Test func aFileAtThePartialsNameThatPhotopickDidNotCreateStopsTheDownloadNamingIt() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let directory = makeDownloadDirectory()
            let strange = directory.appending(path: ".photopick." + photo.filename + ".part")
            try Data("not photopick's".utf8).write(to: strange)
            await #expect(throws: DownloadError.inTheWay(path: strange.path)) {
                try await client.download(photo: photo, into: directory)
            }
            #expect(try Data(contentsOf: strange) == Data("not photopick's".utf8))
            #expect(DownloadError.inTheWay(path: strange.path).userMessage.contains(strange.path))
        }
    }

    @Test func aUsersIdenticalCopyIsFoundButNeverToldAsWritten() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 4))
            let directory = makeDownloadDirectory()
            let copy = directory.appending(path: photo.filename)
            try await bytes(of: photo, client).write(to: copy)
            let told = NIOLockedValueBox(0)
            let result = try await client.download(photo: photo, into: directory, willPlace: { _ in told.withLockedValue { $0 += 1 } })
            #expect(result.outcome == .skippedIdentical && result.fileURL.path == copy.path)
            #expect(told.withLockedValue { $0 } == 0, "nothing was written, so nothing is photopick's")
            #expect(listing(directory) == [photo.filename])
        }
    }

    @Test func anEditKeepingLengthAndDateIsChangedAndSoIsAnIdenticalReplacement() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 2))
            let directory = makeDownloadDirectory()
            let told = NIOLockedValueBox<WrittenFile?>(nil)
            let result = try await client.download(photo: photo, into: directory, willPlace: { file in told.withLockedValue { $0 = file } })
            let record = try #require(told.withLockedValue { $0 })
            let path = result.fileURL.path
            let original = try Data(contentsOf: result.fileURL)
            // As exiftool -P does: other bytes, the same length, the date put back.
            try FileEdits.editKeepingLengthAndDate(path)
            #expect(record.currentState() == .changed)
            // The same bytes again, but a file the user put there (another inode): not the one written.
            let copy = directory.appending(path: "copy")
            try original.write(to: copy)
            #expect(rename(copy.path, path) == 0)
            #expect(record.currentState() == .changed)
            try FileManager.default.removeItem(atPath: path)
            #expect(record.currentState() == .gone)
        }
    }

    @Test func aLinkedFolderUnderTheRootIsNeverFollowedOut() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let root = makeDownloadDirectory(), outside = makeDownloadDirectory()
            try FileManager.default.createSymbolicLink(at: root.appending(path: "2024"), withDestinationURL: outside)
            await #expect(throws: DownloadError.self) {
                try await client.download(photo: photo, into: root.appending(path: "2024/06"), within: root)
            }
            #expect(listing(outside).isEmpty, "nothing made outside the folder")
            // A folder below the root that is a real one is made and used.
            let result = try await client.download(photo: photo, into: root.appending(path: "2025/07"), within: root)
            #expect(result.fileURL.path == root.appending(path: "2025/07/" + photo.filename).path)
        }
    }
}

/// A file checked intact once is not read again while its stamp is the one verified: a re-run over a
/// thousand finished files reads none of them. Any write, `utime` or `chmod` moves the ctime.
struct FileStampTests {
    @Test func aFileWhoseStampIsAsVerifiedIsIntactWithoutBeingReadAndAnyChangeIsHashed() async throws {
        let path = makeDownloadDirectory().appending(path: "a.jpg").path
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: path))
        let stamp = try #require(FileStamp.of(path))
        // A record whose digest the bytes do not match: intact by its stamp only if not a byte was read.
        let record = WrittenFile(
            photoID: 1, variant: "original", path: path, length: 4096, sha256: Array(repeating: 0, count: 32),
            device: stamp.device, inode: stamp.inode, verified: stamp
        )
        #expect(record.currentStateTrustingStamp().state == .intact)
        try await Task.sleep(for: .milliseconds(50))  // past a coarse clock's tick
        #expect(chmod(path, 0o600) == 0)
        #expect(record.currentStateTrustingStamp().state == .changed, "only the ctime moved, and the file was read")
    }

    @Test func aFileJustWrittenIsHashedButItsStampIsNotKeptUntilItHasSettled() throws {
        let path = makeDownloadDirectory().appending(path: "b.jpg").path
        let data = Data(repeating: 9, count: 4096)
        try data.write(to: URL(fileURLWithPath: path))
        let stamp = try #require(FileStamp.of(path))
        let record = WrittenFile(
            photoID: 1, variant: "original", path: path, length: 4096, sha256: Array(SHA256.hash(data: data)),
            device: stamp.device, inode: stamp.inode
        )
        let (state, verified) = record.currentStateTrustingStamp()
        #expect(state == .intact && verified == nil, "a write in the same clock tick could hide behind a stamp taken now")
    }
}
