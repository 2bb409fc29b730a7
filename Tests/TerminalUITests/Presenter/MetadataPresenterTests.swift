import Foundation
import PhotoPickKit
import Testing
@testable import TerminalUI
@testable import PhotoBrowser

@Suite struct MetadataPresenterTests {
    /// A photo with only what the test gives it (`Fixture.photo` adds a camera and a lens).
    private static func photo(
        _ id: Int, _ filename: String, bytes: Int64 = 1_000, takenAt: TimeInterval? = nil, tags: [Int] = [], title: String? = nil
    ) -> Photo {
        var photo = Photo(id: id, filename: filename, bytes: bytes, takenAt: takenAt.map(Date.init(timeIntervalSince1970:)), tagIDs: tags)
        photo.title = title
        return photo
    }

    private func rows(_ photo: Photo) -> [String: String] {
        var catalog = TagCatalog()
        catalog.replaceAll(Fixture.tags)
        let rows = MetadataPresenter(timeZone: TimeZone(identifier: "Europe/Prague")!).rows(for: photo, tags: catalog)
        return Dictionary(rows.map { ($0.label, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func formatsDimensionsSizeTimeCameraExposureAndLocation() {
        var photo = Self.photo(7, "DSC_0042.jpg", bytes: 5_400_277, takenAt: 1_388_788_050, tags: [2, 1])
        photo.width = 6000
        photo.height = 4000
        photo.camera = Photo.Camera(make: "RICOH IMAGING COMPANY, LTD.", model: "RICOH GR III")
        photo.lens = "18.3 mm"
        photo.exposure = Photo.Exposure(iso: 400, fNumber: 2.8, exposureTime: "1/250", focalLength: 35)
        photo.location = Photo.Location(latitude: 50.0875, longitude: -14.4214)
        let rows = rows(photo)
        #expect(rows["Dimensions"] == "6000 × 4000 (24.0 MP)")
        #expect(rows["Size"] == "5.4 MB")
        #expect(rows["Taken"] == "2014-01-03 23:27:30 GMT+1")
        #expect(rows["Camera"] == "RICOH GR III")
        #expect(rows["Exposure"] == "1/250 s · f/2.8 · ISO 400 · 35 mm")
        #expect(rows["Location"] == "50.08750° N, 14.42140° W")
        #expect(rows["Tags"] == "Portfolio, Favourite")
    }

    @Test func theSharpnessRowSaysTheScoreAndItsPlaceInAStackedBurst() {
        let focus = FocusFacts(score: 9, rank: 1, frames: 3, measured: 3)
        let rows = MetadataPresenter().rows(for: Self.photo(2, "b.jpg"), tags: TagCatalog(), focus: focus)
        #expect(rows.contains(MetadataRow("Sharpness", "9.0 · sharpest of 3")))
        #expect(!MetadataPresenter().rows(for: Self.photo(2, "b.jpg"), tags: TagCatalog()).contains { $0.label == "Sharpness" })
    }

    @Test func tagRowCarriesColoursAndUnknownFieldsBecomeRawRows() {
        var photo = Self.photo(7, "a.jpg", tags: [1, 3])
        photo.extra = ["rating": .integer(4), "colorLabel": .string("red"), "faces": .array([.object(["name": .string("Eva")])])]
        var catalog = TagCatalog()
        catalog.replaceAll(Fixture.tags)
        let rows = MetadataPresenter().rows(for: photo, tags: catalog)
        let tags = rows.first { $0.label == "Tags" }!.tags
        #expect(tags.map(\.name) == ["Favourite", "Print"])
        #expect(tags[0].color == TagColor(red: 0xE9, green: 0x4B, blue: 0x60))
        #expect(tags[1].color == nil)
        #expect(Array(rows.suffix(3)).map { "\($0.label)=\($0.value)" } == ["colorLabel=red", "faces=[{\"name\":\"Eva\"}]", "rating=4"])
    }

    @Test func serverTextIsSanitisedBeforeItCanReachATerminal() {
        let photo = Self.photo(7, "evil\u{1B}[2J\u{1B}]0;pwned\u{07}\u{202E}gpj.exe\n.jpg", title: "a\u{9B}31mred")
        let rows = rows(photo)
        #expect(rows["File"] == "evil␛[2J␛]0;pwned␇\u{FFFD}gpj.exe␊.jpg")
        #expect(rows["Title"] == "a\u{FFFD}31mred")
        #expect(rows.values.allSatisfy { !$0.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) } })
    }

    @Test func missingFieldsAreLeftOutOrSaidToBeUnknown() {
        let rows = rows(Self.photo(7, "a.jpg"))
        #expect(rows["Taken"] == "unknown")
        #expect(rows["Camera"] == nil && rows["Exposure"] == nil && rows["Location"] == nil)
        #expect(rows["Tags"] == "none")
    }
}
