import Foundation
import GRDB
import PhotoPickKit
import PhotoPickTestSupport
import Testing
@testable import PhotoBrowser

/// The library file beside the catalogue: the columns as written, read back whole, and only the rows
/// changed since taken from the catalogue at a start.
@Suite struct LibraryFileTests {
    private func photos(_ count: Int) -> [Photo] {
        (1...count).map { id in
            var photo = Sample.photo(id, "IMG_\(1000 + (id * 7919) % 997).jpg", bytes: Int64(1_000 + id * 37 % 500), takenAt: 1_700_000_000 + Double(id % 50) * 60,
                                     tags: id % 3 == 0 ? [1] : (id % 5 == 0 ? [1, 2] : []), title: id % 4 == 0 ? "Žluťoučký kůň \(id)" : nil,
                                     camera: id % 2 == 0 ? "GR III" : "X-T5", lens: id % 2 == 0 ? nil : "XF 23mm")
            photo.description = id % 10 == 0 ? "a long description of photo \(id)" : nil
            if id == 7 { photo.extra = ["rating": .integer(4)] }
            photo.location = id % 6 == 0 ? Photo.Location(latitude: 50.08804, longitude: 14.42076) : nil
            return photo
        }
    }

    private func library(_ photos: [Photo]) -> PhotoLibrary {
        var library = PhotoLibrary()
        library.append(photos)
        return library
    }

    @Test func aLibraryWrittenAndReadBackIsTheSameLibrary() throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var written = library(photos(300))
        // A renamed photo keeps its row with text that left its slot; a tag on many photos is a bit set.
        var renamed = written.photo(at: 4)
        renamed.filename = "a much longer name than before.jpg"
        written.replace(at: 4, with: renamed)
        written.setTag(9, on: Bitset(0..<200), true)
        written.setFocusScore(12.5, at: 3)
        _ = written.takeChanges()
        let url = directory.appending(path: "x.columns")
        try LibraryFile.write(written, revision: 17, instance: "A", to: url)
        let (read, revision) = try LibraryFile.read(url, instance: "A")
        #expect(revision == 17)
        #expect((0..<300).map(read.photo(at:)) == (0..<300).map(written.photo(at:)))
        for key in SortKey.allCases { #expect(read.orders[key] == written.orders[key], "\(key)") }
        #expect(read.count(ofTag: 9) == 200 && read.count(ofTag: 2) == written.count(ofTag: 2))
        #expect(read.focusScore(at: 3) == 12.5 && read.index(ofID: 150) == 149)
        #expect(throws: LibraryFileProblem.self) { try LibraryFile.read(url, instance: "B") }
        // A file cut short is not taken for a library.
        let bytes = try Data(contentsOf: url)
        try bytes.prefix(bytes.count - 100).write(to: url)
        #expect(throws: LibraryFileProblem.self) { try LibraryFile.read(url, instance: "A") }
    }

    @Test func aStartReadsTheFileAndOnlyTheRowsChangedSince() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (catalogue, _) = try Catalogue.open(library: "file", directory: directory, now: Sample.now)
        let all = photos(500)
        var walk = try catalogue.beginWalk()
        try await catalogue.save(page: all, nextCursor: nil, walk: walk, at: Sample.now)
        _ = try await catalogue.completeWalk(walk, at: Sample.now)
        try catalogue.writeLibraryFile()
        let first = try catalogue.snapshot()
        #expect(first.library.count == 500 && first.photos.isEmpty && first.gone.isEmpty && !first.isLibraryFileStale)

        // The next walk: one photo renamed, one gone, one new, the rest as they were.
        walk = try catalogue.beginWalk()
        var changed = all.filter { $0.id != 9 }
        changed[1].filename = "renamed.jpg"
        changed.append(Sample.photo(501, "new.jpg"))
        try await catalogue.save(page: changed, nextCursor: nil, walk: walk, at: Sample.now)
        #expect(try await catalogue.completeWalk(walk, at: Sample.now) == [9])
        try await catalogue.save(tagIDs: [2], ofPhoto: 20, at: Sample.now)
        let second = try catalogue.snapshot()
        #expect(second.library.count == 500, "the file as written")
        #expect(Set(second.photos.map(\.id)) == [2, 20, 501] && second.gone == [9], "only what changed is read from the catalogue")

        var state = BrowserState(downloadDirectory: directory)
        _ = state.apply(.catalogue(.catalogueLoaded(second, notice: nil, at: Sample.now)))
        var expected = changed
        expected[expected.firstIndex { $0.id == 20 }!].tagIDs = [2]
        let shown = (0..<state.library.storedCount).filter { !state.library.isRemoved($0) }.map(state.library.photo(at:)).sorted { $0.id < $1.id }
        #expect(shown == expected.sorted { $0.id < $1.id })
        #expect(state.list.count == 500 && state.library.index(ofID: 9) == nil)
    }

    @Test func aFileOfAnotherCatalogueIsNotUsed() async throws {
        let directory = TestServer.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (catalogue, _) = try Catalogue.open(library: "file", directory: directory, now: Sample.now)
        let walk = try catalogue.beginWalk()
        try await catalogue.save(page: photos(50), nextCursor: nil, walk: walk, at: Sample.now)
        try catalogue.writeLibraryFile()
        // The catalogue set aside and begun again: the file beside it names the old one.
        let (fresh, _) = try catalogue.rebuilt(library: "file", after: CatalogueDamage(reason: "test"), at: Sample.now)
        let snapshot = try fresh.snapshot()
        #expect(snapshot.library.count == 0 && snapshot.photos.isEmpty)
    }
}
