import Foundation
import NIOCore
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// Downloads: verified, resumable, atomic, and never outside the folder.
struct DownloadTests {
    /// The server's own copy of an image: the ground truth a download must equal.
    private func original(_ server: PhotoPickServer, _ id: Int, _ variant: String = "original") throws -> Data {
        try Data(contentsOf: originalFile(server, id, variant))
    }

    /// Where the server keeps its copy of an image.
    private func originalFile(_ server: PhotoPickServer, _ id: Int, _ variant: String = "original") -> URL {
        server.dataDirectory.appending(path: "images/\(id)-\(variant).jpg")
    }

    @Test func downloadsVerifiesAndDatesTheFile() async throws {
        try await withKitServer(photos: 5) { server, client, _ in
            let directory = makeDownloadDirectory()
            let photo = try await client.send(API.photo(id: 2))
            let result = try await client.download(photo: photo, into: directory)
            #expect(result.outcome == .downloaded && result.bytes == photo.bytes && result.resumedFrom == 0)
            #expect(try Data(contentsOf: result.fileURL) == original(server, 2))
            let modified = try FileManager.default.attributesOfItem(atPath: result.fileURL.path)[.modificationDate] as? Date
            #expect(modified.map { abs($0.timeIntervalSince(photo.takenAt!)) < 0.001 } == true)
            #expect(listing(directory) == [photo.filename])
        }
    }

    @Test func anIdenticalFileIsSkippedAndADifferentOneKept() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let directory = makeDownloadDirectory()
            let photo = try await client.send(API.photo(id: 3))
            _ = try await client.download(photo: photo, into: directory)
            let again = try await client.download(photo: photo, into: directory)
            #expect(again.outcome == .skippedIdentical)
            try Data("someone else's file".utf8).write(to: directory.appending(path: photo.filename))
            let third = try await client.download(photo: photo, into: directory)
            #expect(third.outcome == .downloaded)
            let stem = (photo.filename as NSString).deletingPathExtension, ext = (photo.filename as NSString).pathExtension
            #expect(third.fileURL.lastPathComponent == "\(stem) (2).\(ext)")
            #expect(try await client.download(photo: photo, into: directory).outcome == .skippedIdentical)
            #expect(listing(directory).count == 2)
        }
    }

    @Test func variantsGetTheirOwnNames() async throws {
        try await withKitServer(photos: 5) { server, client, _ in
            let directory = makeDownloadDirectory()
            let photo = try await client.send(API.photo(id: 1))
            let result = try await client.download(photo: photo, size: .web, into: directory)
            #expect(result.fileURL.lastPathComponent.hasSuffix("-web.jpg"))
            #expect(try Data(contentsOf: result.fileURL) == original(server, 1, "web"))
        }
    }

    @Test func aBatchOfTwoHundredSurvivesTwentyPercentFaults() async throws {
        let faults: Set<FaultKind> = [.internalError, .unavailable, .rateLimited, .reset, .truncate]
        // Each injected 429 holds every download for a second: on a test clock, moved on when all are waiting.
        let clock = TestClock()
        // Small originals: the faults are what is tested, not the server's rendering of 12 MP scenes.
        try await withKitServer(photos: 200, { $0.faultRate = 0.2; $0.faults = faults; $0.originalMegapixels = 0.01 }, clock: clock) { server, client, log in
            let directory = makeDownloadDirectory()
            let results = try await clock.advancingWhenIdle {
                let photos = try await PhotoStream(client: client).reduce(into: [Photo]()) { $0.append($1) }
                return try await withThrowingTaskGroup(of: (Int, DownloadResult).self) { group in
                    var results: [(Int, DownloadResult)] = []
                    for (index, photo) in photos.enumerated() {
                        if index >= 8 { results.append(try await group.next()!) }
                        group.addTask { (photo.id, try await client.download(photo: photo, into: directory)) }
                    }
                    for try await result in group { results.append(result) }
                    return results
                }
            }
            #expect(results.count == 200)
            #expect(listing(directory).count == 200)
            #expect(!listing(directory).contains { $0.hasSuffix(".part") })
            for (id, result) in results {
                #expect(try Data(contentsOf: result.fileURL) == original(server, id), "photo \(id)")
            }
            #expect(log.lines.contains { $0.contains(" 206 ") }, "truncated files were resumed with a range")
        }
    }

    @Test func resumesAPartialFileAfterATruncation() async throws {
        let data = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: data) }
        let directory = makeDownloadDirectory()
        // Every file answer breaks off halfway; the download is cancelled once it holds half the file.
        let photo = try await withKitServer(photos: 5, { $0.dataDirectory = data; $0.faultRate = 1; $0.faults = [.truncate] }) { _, client, _ in
            let photo = try await client.send(API.photo(id: 4))
            let (halfway, reached) = AsyncStream.makeStream(of: Void.self)
            let download = Task {
                try await client.download(photo: photo, into: directory) { progress in
                    if progress.receivedBytes >= photo.bytes / 2 { reached.yield() }
                }
            }
            for await _ in halfway { break }
            download.cancel()
            await #expect(throws: APIError.self) { try await download.value }
            return photo
        }
        let partial = try #require(listing(directory).first)
        #expect(partial == ".photopick." + photo.filename + ".part")
        let kept = try FileManager.default.attributesOfItem(atPath: directory.appending(path: partial).path)[.size] as! Int64
        #expect(kept >= photo.bytes / 2 && kept < photo.bytes)
        try await withKitServer(photos: 5, { $0.dataDirectory = data }) { server, client, log in
            let result = try await client.download(photo: photo, into: directory)
            #expect(result.resumedFrom == kept)
            #expect(log.lines.contains { $0.hasPrefix("GET /files/4/original 206") })
            #expect(try Data(contentsOf: result.fileURL) == original(server, 4))
            #expect(listing(directory) == [photo.filename])
        }
    }

    @Test func aDigestMismatchDeletesThePartialAndSaysSo() async throws {
        try await withKitServer(photos: 5) { server, client, _ in
            let photo = try await client.send(API.photo(id: 4))
            _ = try await client.download(photo: photo, into: makeDownloadDirectory())
            // Rot one byte of the server's stored copy: its advertised digest no longer matches.
            let stored = originalFile(server, 4)
            var bytes = try Data(contentsOf: stored)
            bytes[bytes.count / 2] ^= 0xFF
            try bytes.write(to: stored)
            let directory = makeDownloadDirectory()
            await #expect(throws: DownloadError.digestMismatch(filename: photo.filename)) {
                try await client.download(photo: photo, into: directory)
            }
            #expect(listing(directory).isEmpty)
        }
    }

    @Test func theKeyNeverReachesTheFilesOrigin() async throws {
        try await withKitServer(photos: 5, { $0.filesPort = 0 }) { server, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let result = try await client.download(photo: photo, into: makeDownloadDirectory())
            #expect(result.outcome == .downloaded)
            #expect(server.filesOrigin.requestCount >= 1)
            #expect(server.filesOrigin.authorizationHeaderCount == 0)
        }
    }

    @Test func anExpiredLinkIsRefreshedKeepingTheBytes() async throws {
        // Links live 4 s on the test clock, which stands still until the test moves it past the first one's end.
        let clock = TestClock()
        try await withKitServer(photos: 5, { $0.signedURLLifetime = .seconds(4) }, clock: clock) { server, client, log in
            let photo = try await client.send(API.photo(id: 2))
            let stale = try await client.send(API.downloadLocation(id: 2))
            let whole = try await APICaller.fetch(stale.absoluteString)
            try #require(whole.status == 200)
            let half = whole.body.count / 2
            // A partial from an earlier run, with the validator and source it would have recorded.
            let directory = makeDownloadDirectory()
            let part = try DownloadDirectory(directory).openPart(".photopick." + photo.filename + ".part").part
            try part.append(ByteBuffer(bytes: whole.body[..<half]))
            let etag: String = try #require(whole.header("ETag"))
            part.validator = etag
            part.source = "2/original/original"
            clock.advance(by: .seconds(4))
            var download = try await FileDownload.prepare(client: client, photo: photo, size: .original, format: .original,
                                                          directory: try DownloadDirectory(directory), progress: nil, willPlace: nil)
            download.location = stale
            let result = try await download.run()
            #expect(result.resumedFrom == Int64(half))
            #expect(try Data(contentsOf: result.fileURL) == original(server, 2))
            let files = log.lines.filter { $0.hasPrefix("GET /files/2/original") }.map { $0.split(separator: " ")[2] }
            #expect(files == ["200", "403", "206"], "the test's own fetch, then the stale link, then the resumed range")
            #expect(log.requests("GET /api/v1/photos/2/download").count == 2)
        }
    }

    @Test func twoDownloadsOfOnePhotoAtOnceLeaveOneFile() async throws {
        try await withKitServer(photos: 5) { server, client, _ in
            let photo = try await client.send(API.photo(id: 3))
            let directory = makeDownloadDirectory()
            async let first = client.download(photo: photo, into: directory)
            async let second = client.download(photo: photo, into: directory)
            let outcomes = try await [first.outcome, second.outcome]
            #expect(listing(directory) == [photo.filename])
            #expect(Set(outcomes).contains(.downloaded))
            #expect(try Data(contentsOf: directory.appending(path: photo.filename)) == original(server, 3))
        }
    }

    /// The moment between another download's O_EXCL and its label: an empty, unlabelled partial made just
    /// now is waited for, not called in the way (two downloads of one photo at once hit it by chance).
    @Test func aPartialJustCreatedAndNotYetLabelledIsWaitedFor() async throws {
        // The download looks again on the client's clock, which the test moves once the other download is done.
        let clock = TestClock()
        try await withKitServer(photos: 5, clock: clock) { server, client, _ in
            let photo = try await client.send(API.photo(id: 3))
            let directory = makeDownloadDirectory()
            let name = ".photopick." + photo.filename + ".part"
            _ = try DownloadDirectory(directory).openPart(name).part
            let download = Task { try await client.download(photo: photo, into: directory) }
            // It found the other download's partial, fresh and unlabelled, and waits rather than taking it.
            await clock.sleepers(atLeast: 1)
            #expect(listing(directory) == [name])
            // The other download finishes and takes its partial away; this one looks again and goes on.
            try FileManager.default.removeItem(at: directory.appending(path: name))
            clock.advance(by: .milliseconds(50))
            let result = try await download.value
            #expect(result.outcome == .downloaded)
            #expect(try Data(contentsOf: result.fileURL) == original(server, 3))
        }
    }

    /// A kill between creating a partial and labelling it used to leave an empty, unlabelled `.part`
    /// that no later run could claim (crash.py seed 197241). On Linux the partial now appears under its
    /// name already labelled and locked: the file is made unnamed first.
    @Test func aNewPartialHasItsLabelAndLockBeforeItHasItsName() throws {
        let directory = makeDownloadDirectory()
        let folder = try DownloadDirectory(directory)
        let name = ".photopick.IMG_0001.JPG.part"
        let (part, isNew) = try folder.openPart(name, labelledAs: "1/original/original")
        #expect(isNew)
        #expect(part.source == "1/original/original")
        #expect(folder.isSameFile(part, as: name))
        #if os(Linux)
        // Made by name, the file would have been open unlocked for a moment; made unnamed, the lock was
        // taken before the link, so another opener finds it held from the first instant it can see it.
        let other = try #require(folder.openExistingPart(name))
        #expect(!other.lockExclusively())
        // Nothing else was left in the folder: no temporary name.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == [name])
        #endif
        // Asked again, the name is taken: the same file is opened, not a second one made.
        let again = try folder.openPart(name, labelledAs: "1/original/original")
        #expect(!again.isNew)
        #expect(folder.isSameFile(again.part, as: name))
    }

    @Test func aPartialOfAnotherPhotoWithTheSameNameIsLeftAlone() async throws {
        try await withKitServer(photos: 5) { server, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let directory = makeDownloadDirectory()
            let foreign = try DownloadDirectory(directory).openPart(".photopick." + photo.filename + ".part").part
            try foreign.append(ByteBuffer(string: "another photo's first bytes"))
            foreign.validator = "\"other\""
            foreign.source = "99/original/original"
            let result = try await client.download(photo: photo, into: directory)
            #expect(result.resumedFrom == 0)
            #expect(try Data(contentsOf: result.fileURL) == original(server, 1))
            #expect(try Data(contentsOf: directory.appending(path: ".photopick." + photo.filename + ".part")) == Data("another photo's first bytes".utf8))
        }
    }

    @Test func aRefusedDownloadLeavesNothingBehind() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let directory = makeDownloadDirectory()
            await #expect {
                try await client.download(photo: photo, format: .webp, into: directory)
            } throws: { error in
                (error as? APIError)?.code == .tariffNotSupported
            }
            #expect(listing(directory).isEmpty, "no empty .part is left")
        }
    }

    @Test func notEnoughSpaceFailsBeforeAnyRequest() async throws {
        try await withKitServer(photos: 5) { _, client, log in
            var photo = try await client.send(API.photo(id: 1))
            photo.bytes = 1 << 60
            let directory = makeDownloadDirectory()
            await #expect {
                try await client.download(photo: photo, into: directory)
            } throws: { error in
                guard case .insufficientSpace(_, let needed, _) = error as? DownloadError else { return false }
                return needed == 1 << 60
            }
            #expect(!log.lines.contains { $0.contains("/download") })
        }
    }

    @Test func aFullDiskIsAClearErrorThatKeepsThePartial() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        let part = PartFile(descriptor: descriptor, path: "/dev/full")
        #expect(throws: DownloadError.diskFull(path: "/dev/full")) { try part.append(.init(string: "bytes")) }
        #expect(DownloadError.diskFull(path: "x.jpg.part").userMessage.contains("partial file is kept"))
    }

    @Test func progressIsReportedUpToTheWholeFile() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let photo = try await client.send(API.photo(id: 1))
            let seen = LineLog()
            _ = try await client.download(photo: photo, into: makeDownloadDirectory()) { progress in
                seen.append("\(progress.receivedBytes)/\(progress.expectedBytes ?? -1)")
            }
            #expect(seen.lines.last == "\(photo.bytes)/\(photo.bytes)")
        }
    }
}
