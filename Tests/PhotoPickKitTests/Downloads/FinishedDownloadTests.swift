import Crypto
import Foundation
import NIOCore
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// A `kill -9` at an unlucky moment costs no second download of a file that is already whole.
struct FinishedDownloadTests {
    /// A `.part` holding the whole original, as a download killed after its last byte but before the
    /// rename leaves it; with or without the server's digest kept beside it.
    private func completePart(of photo: Photo, client: APIClient, in directory: URL, keepingDigest: Bool) async throws {
        let bytes = try Data(contentsOf: try await client.download(photo: photo, into: makeDownloadDirectory()).fileURL)
        let part = try DownloadDirectory(directory).openPart(".photopick." + photo.filename + ".part").part
        try part.append(ByteBuffer(bytes: bytes))
        // The ETag the bytes came with (our server's is the first half of their SHA-256, quoted).
        part.validator = "\"" + SHA256.hash(data: bytes).prefix(16).map { String(format: "%02x", $0) }.joined() + "\""
        part.source = "\(photo.id)/original/original"
        if keepingDigest {
            part.digest = Array(SHA256.hash(data: bytes))
        }
    }

    @Test func aCompletePartWithItsDigestIsFinishedWithoutAnyRequest() async throws {
        try await withKitServer(photos: 5) { server, client, log in
            let photo = try await client.send(API.photo(id: 2))
            let directory = makeDownloadDirectory()
            try await completePart(of: photo, client: client, in: directory, keepingDigest: true)
            let before = log.lines.count
            let result = try await client.download(photo: photo, into: directory)
            #expect(result.outcome == .downloaded && result.bytes == photo.bytes)
            #expect(log.lines.dropFirst(before).isEmpty, "no request: \(Array(log.lines.dropFirst(before)))")
            #expect(listing(directory) == [photo.filename])
        }
    }

    @Test func aCompletePartWithoutADigestIsFinishedOnThe416() async throws {
        try await withKitServer(photos: 5) { server, client, log in
            let photo = try await client.send(API.photo(id: 3))
            let directory = makeDownloadDirectory()
            try await completePart(of: photo, client: client, in: directory, keepingDigest: false)
            let before = log.lines.count
            let result = try await client.download(photo: photo, into: directory)
            #expect(result.outcome == .downloaded && result.bytes == photo.bytes)
            let requests = Array(log.lines.dropFirst(before))
            #expect(requests.contains { $0.contains(" 416 ") }, "\(requests) \(listing(directory))")
            #expect(!requests.contains { $0.contains(" 200 ") || $0.contains(" 206 ") }, "the file was not fetched again: \(requests)")
            #expect(try Data(contentsOf: result.fileURL) == Data(contentsOf: server.dataDirectory.appending(path: "images/3-original.jpg")))
        }
    }

    @Test func aFileAlreadyInPlaceIsFoundWithoutAnyRequest() async throws {
        try await withKitServer(photos: 5) { _, client, log in
            let photo = try await client.send(API.photo(id: 4))
            let directory = makeDownloadDirectory()
            let first = try await client.download(photo: photo, into: directory)
            // As after a kill between the link into place and the unlink of the .part.
            #expect(link(first.fileURL.path, directory.appending(path: ".photopick." + photo.filename + ".part").path) == 0)
            let before = log.lines.count
            let again = try await client.download(photo: photo, into: directory)
            #expect(again.outcome == .skippedIdentical && again.fileURL == first.fileURL)
            #expect(log.lines.dropFirst(before).isEmpty, "no request: \(Array(log.lines.dropFirst(before)))")
            #expect(listing(directory) == [photo.filename], "the leftover .part went")
            // A file changed since (edited by hand) no longer verifies: it is kept and the photo fetched anew.
            try Data("edited".utf8).write(to: first.fileURL)
            #expect(try await client.download(photo: photo, into: directory).outcome == .downloaded)
            #expect(listing(directory).count == 2)
        }
    }
}
