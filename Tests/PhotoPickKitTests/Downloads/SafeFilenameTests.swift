import Foundation
@testable import PhotoPickKit
import PhotoPickServer
import PhotoPickTestSupport
import Testing

/// File names from the server are made safe by construction.
struct SafeFilenameTests {
    private func name(_ server: String, size: DownloadSize = .original) -> String {
        SafeFilename(serverName: server, photoID: 9, mimeType: "image/jpeg", size: size, format: .original).candidate(1)
    }

    @Test(arguments: [
        ("IMG_0001.JPG", "IMG_0001.JPG"),
        ("../../../etc/passwd", "_._._etc_passwd.jpg"),
        (".hidden.jpg", "hidden.jpg"),
        ("holiday.jpg.exe", "holiday.jpg.exe.jpg"),
        ("snapshot.", "snapshot.jpg"),
        ("sub/dir/name.jpg", "sub_dir_name.jpg"),
        ("\u{202E}gpj.exe", "gpj.exe.jpg"),
        ("bell\u{07}back\u{08}space\r\nnew line.jpg", "bell_back_space_new line.jpg"),
        ("", "photo-9.jpg"),
        ("..", "photo-9.jpg"),
        ("Žluťoučký kůň.jpeg", "Žluťoučký kůň.jpeg"),
    ])
    func sanitises(server: String, expected: String) {
        #expect(name(server) == expected)
    }

    /// An original keeps its own kind's name (a HEIC is never renamed `.jpg`); asked for as JPEG, its
    /// image extension gives way to `.jpg`, and anything else is kept in the stem.
    struct KindCase: Sendable {
        let server: String, mimeType: String?, format: DownloadFormat, expected: String
    }

    @Test(arguments: [
        KindCase(server: "IMG_0001.HEIC", mimeType: "image/heic", format: .original, expected: "IMG_0001.HEIC"),
        KindCase(server: "IMG_0001.DNG", mimeType: "image/x-adobe-dng", format: .original, expected: "IMG_0001.DNG"),
        KindCase(server: "export.png", mimeType: nil, format: .original, expected: "export.png"),
        KindCase(server: "IMG_0001.HEIC", mimeType: "image/heic", format: .jpeg, expected: "IMG_0001.jpg"),
        KindCase(server: "R0000001.DNG", mimeType: "image/x-adobe-dng", format: .jpeg, expected: "R0000001.jpg"),
        KindCase(server: "IMG_0001.JPG", mimeType: "image/jpeg", format: .jpeg, expected: "IMG_0001.JPG"),
        KindCase(server: "notes.exe", mimeType: "image/heic", format: .jpeg, expected: "notes.exe.jpg"),
    ])
    func originalsKeepTheirKindsNameUnlessAskedForAsJPEG(_ kind: KindCase) {
        let name = SafeFilename(serverName: kind.server, photoID: 9, mimeType: kind.mimeType, size: .original, format: kind.format).candidate(1)
        #expect(name == kind.expected)
    }

    @Test func cutsLongNamesOnACharacterBoundaryKeepingTheExtension() {
        let long = "long-" + String(repeating: "ř", count: 145) + "x.jpg"
        let safe = SafeFilename(serverName: long, photoID: 1, mimeType: "image/jpeg", size: .original, format: .original)
        for number in [1, 2, 100] {
            let candidate = safe.candidate(number)
            #expect(candidate.utf8.count + ".part".utf8.count <= 255)
            #expect(candidate.hasSuffix(number == 1 ? ".jpg" : " (\(number)).jpg"))
            #expect(candidate.unicodeScalars.allSatisfy { $0 != "\u{FFFD}" })
        }
    }

    @Test func aNameThatLooksLikeAPartialIsChanged() {
        let safe = SafeFilename(serverName: "a.jpg.part", photoID: 3, mimeType: nil, size: .original, format: .original)
        #expect(safe.candidate(1) == "a.jpg.part_")
    }

    @Test func aStemWithNoCharacterThatFitsFallsBackToTheID() {
        let heavy = "e" + String(repeating: "\u{301}", count: 200) + ".jpg"  // one grapheme of 401 bytes
        let safe = SafeFilename(serverName: heavy, photoID: 12, mimeType: "image/jpeg", size: .original, format: .original)
        #expect(safe.candidate(1) == "photo-12.jpg")
    }

    @Test func variantsAreNamedAfterTheirSize() {
        #expect(name("IMG_7.heic", size: .fhd) == "IMG_7-fhd.jpg")
    }

    @Test func everyHostileDemoNameDownloadsInsideTheFolder() async throws {
        let hostileIDs = (0..<14).map { 37 * $0 + 5 }
        try await withKitServer(photos: 500) { _, client, _ in
            let directory = makeDownloadDirectory()
            for id in hostileIDs {
                let photo = try await client.send(API.photo(id: id))
                let result = try await client.download(photo: photo, into: directory)
                #expect(result.fileURL.deletingLastPathComponent().path == directory.path)
            }
            let names = listing(directory)
            #expect(names.count == hostileIDs.count)
            for name in names {
                #expect(!name.hasPrefix(".") && !name.contains("/") && !name.contains("\\") && !name.contains(".."))
                #expect(name.utf8.count <= 250)
                #expect(!name.unicodeScalars.contains { $0.properties.generalCategory == .control || (0x202A...0x202E).contains($0.value) })
            }
            // Nothing escaped: the parent holds no new entries.
            #expect(!FileManager.default.fileExists(atPath: directory.deletingLastPathComponent().appending(path: "etc").path))
        }
    }

    @Test func aSymlinkAtThePartialsNameIsNeitherFollowedNorRemoved() async throws {
        try await withKitServer(photos: 5) { _, client, _ in
            let directory = makeDownloadDirectory()
            let outside = makeDownloadDirectory().appending(path: "victim.txt")
            try Data("keep me".utf8).write(to: outside)
            let photo = try await client.send(API.photo(id: 1))
            let link = directory.appending(path: ".photopick." + photo.filename + ".part")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: outside)
            await #expect(throws: DownloadError.inTheWay(path: link.path)) {
                try await client.download(photo: photo, into: directory)
            }
            #expect(try String(contentsOf: outside, encoding: .utf8) == "keep me")
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == outside.path, "the link stays")
        }
    }
}
