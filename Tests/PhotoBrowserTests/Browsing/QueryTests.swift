import Foundation
import PhotoPickKit
@testable import PhotoPickServer
import Testing
@testable import PhotoBrowser

@Suite struct QueryTests {
    /// Capture times in UTC, the zone the queries below are read in.
    static func utc(_ text: String) -> TimeInterval {
        ISO8601DateFormatter().date(from: text)!.timeIntervalSince1970
    }

    static let photos: [Photo] = {
        func photo(
            _ id: Int, _ name: String, taken: String?, camera: (String, String)?, lens: String?, iso: Int?, f: Double?,
            focal: Double?, bytes: Int64, gps: Bool = false, tags: [Int] = [], title: String? = nil
        ) -> Photo {
            var photo = Sample.photo(id, name, bytes: bytes, takenAt: taken.map(utc), tags: tags, title: title, lens: lens)
            photo.camera = camera.map { Photo.Camera(make: $0.0, model: $0.1) }
            photo.exposure = Photo.Exposure(iso: iso, fNumber: f, exposureTime: nil, focalLength: focal)
            if gps { photo.location = Photo.Location(latitude: 50.08, longitude: 14.42) }
            return photo
        }
        return [
            photo(1, "R0001.JPG", taken: "2024-06-01T08:00:00Z", camera: ("RICOH IMAGING COMPANY, LTD.", "RICOH GR III"), lens: nil,
                  iso: 3200, f: 2.8, focal: 18.3, bytes: 12_000_000, gps: true, tags: [10, 13]),
            photo(2, "P100.JPG", taken: "2024-06-30T23:59:59Z", camera: ("OM Digital Solutions", "OM-1"), lens: "M.Zuiko Digital ED 12-40mm F2.8 PRO II",
                  iso: 200, f: 4, focal: 40, bytes: 8_000_000, tags: [11, 2, 30]),
            photo(3, "Kavárna u řeky.jpg", taken: "2024-07-15T12:00:00Z", camera: ("SONY", "ILCE-7M4"), lens: "FE 35mm F1.4 GM",
                  iso: 6400, f: 1.4, focal: 35, bytes: 20_000_000, tags: [15, 20, 2], title: "Café Slavia"),
            photo(4, "IMG_0004.jpg", taken: "2024-09-01T00:00:00Z", camera: ("Canon", "Canon EOS R6 Mark II"), lens: "RF50mm F1.8 STM",
                  iso: 100, f: 8, focal: 50, bytes: 5_000_000, tags: [1, 31]),
            photo(5, "scan.jpg", taken: nil, camera: nil, lens: nil, iso: nil, f: nil, focal: nil, bytes: 300_000),
        ]
    }()

    static let tags = Sample.tags + [
        PhotoPickKit.Tag(id: 10, name: "Pick", color: nil), PhotoPickKit.Tag(id: 11, name: "Reject", color: nil),
        PhotoPickKit.Tag(id: 13, name: "3 stars", color: nil), PhotoPickKit.Tag(id: 15, name: "5 stars", color: nil),
        PhotoPickKit.Tag(id: 20, name: "Red", color: nil), PhotoPickKit.Tag(id: 30, name: "To edit", color: nil), PhotoPickKit.Tag(id: 31, name: "Travel", color: nil),
    ]

    /// The browser every query runs in, made once: a query changes only the copy of its list.
    static let state = MarkTests.state(photos, tags: Array(tags.dropFirst(3)))

    /// The ids a query lets through, read in UTC.
    static func ids(_ query: String) -> [Int] {
        let state = Self.state
        var filter = PhotoFilter()
        filter.setQuery(PhotoQuery(query, timeZone: TimeZone(identifier: "UTC")!))
        filter.tagContext = QueryTags(state.tags)
        var list = state.list
        list.setFilter(filter, library: state.library, selection: state.selection)
        return list.libraryIndices.map { state.library[$0].id }.sorted()
    }

    @Test(arguments: [
        ("camera:gr", [1]), ("CAMERA:sony", [3]), ("camera:\"om digital\"", [2]), ("lens:zuiko", [2]), ("lens:f1.4", [3]),
        ("iso>=3200", [1, 3]), ("iso>3200", [3]), ("iso<=200", [2, 4]), ("iso<200", [4]), ("iso:200", [2]), ("iso:100..3200", [1, 2, 4]),
        ("f<=2.8", [1, 3]), ("f=8", [4]), ("focal:50..85", [4]), ("focal:..35", [1, 3]), ("focal:35mm", [3]),
        ("taken:2024-06", [1, 2]), ("taken:2024-06-30", [2]), ("taken:2024", [1, 2, 3, 4]), ("taken:2024-06-01..2024-08-31", [1, 2, 3]),
        ("taken>=2024-07", [3, 4]), ("taken<2024-06-02", [1]), ("-taken:2024-06", [3, 4, 5]),
        ("#Travel", [4]), ("#travel", [4]), ("-#Travel", [1, 2, 3, 5]), ("#portfolio", [2, 3]), ("-#Portfolio", [1, 4, 5]),
        ("#\"to edit\"", [2]), ("#\"TO EDIT\"", [2]), ("\"#travel\"", []),
        ("rating>=3", [1, 3]), ("rating:5", [3]), ("rating:0", [2, 4, 5]), ("rating<3", [2, 4, 5]), ("rating>2.5", [1, 3]),
        ("rating<0.5", [2, 4, 5]), ("rating:2.5..5", [1, 3]), ("iso>3199.5", [1, 3]), ("f<2.8", [3]),
        ("pick", [1]), ("reject", [2]), ("-reject", [1, 3, 4, 5]), ("label:red", [3]), ("label:RED", [3]),
        ("has:gps", [1]), ("-has:gps", [2, 3, 4, 5]), ("has:date", [1, 2, 3, 4]), ("has:title", [3]),
        ("size>10MB", [1, 3]), ("size<=5mb", [4, 5]), ("size:1..400KB", [5]), ("untagged", [1, 5]),
        ("rating>=3 -reject camera:gr", [1]), ("iso>=200 f<=2.8 -has:gps", [3]), ("focal:..36 #portfolio", [3]),
        ("iso>=200 f<=4 size>6MB -rating:5", [1, 2]), ("-has:gps -#portfolio", [4, 5]), ("cafe", [3]), ("KAVARNA", [3]), ("řeky", [3]), ("reky jpg", [3]), ("-img", [1, 2, 3, 5]),
        ("\"12:30\"", []), ("", [1, 2, 3, 4, 5]),
    ])
    func everyTermFilters(query: String, expected: [Int]) {
        #expect(Self.ids(query) == expected, "\(query)")
    }

    @Test(arguments: [
        ("iso>=high", "“high” is not a number; write it like iso>=3200"),
        ("taken:2024-13", "“2024-13” is not a day of the calendar"),
        ("taken:2024-02-30", "“2024-02-30” is not a day of the calendar"),
        ("taken:june", "“june” is not a date; write 2024, 2024-06 or 2024-06-01"),
        ("taken:2024-08..2024-06", "2024-08..2024-06: the range runs backwards; write the earlier date first"),
        ("focal:85..50", "85..50: the range runs backwards; write the smaller number first"),
        ("label:pink", "“pink” is not a label; use red, yellow, green, blue, purple"),
        ("has:wings", "has: takes gps, date or title"),
        ("colour:red", "no field is called “colour”; the fields are camera, lens, iso, f, focal, taken, size, rating, label, has, sharp, or quote it to search for it"),
        ("camera:", "camera: needs a name, like camera:gr"),
        ("iso>=", "iso>= needs a number, like iso>=3200"),
        ("#", "# needs a tag name, like #Travel"),
        ("rating>=9", "ratings go from 0 (unrated) to 5"),
        ("rating:2.5", "ratings are whole stars: no rating lies in 2.5; write it like rating>=3"),
        ("rating:2.2..2.8", "ratings are whole stars: no rating lies in 2.2..2.8; write it like rating>=3"),
        ("size>1e300GB", "“1e300GB” is too large; write it like size>10MB"),
        ("iso>1.7976931348623157e308", "“1.7976931348623157e308” is too large; write it like iso>=3200"),
    ])
    func aTermItCannotReadSaysWhyAndTheRestStillFilters(term: String, reason: String) throws {
        let query = PhotoQuery("camera:gr " + term, timeZone: TimeZone(identifier: "UTC")!)
        let problem = try #require(query.problems.first)
        #expect(query.problems.count == 1)
        #expect(problem.reason == reason)
        #expect(problem.offset == 10 && problem.term == term)
        #expect(Self.ids("camera:gr " + term) == [1], "the term it could read still filters")
    }

    @Test func aTagNoOneHasIsNamedAsAProblemAndMatchesNothing() {
        var filter = PhotoFilter()
        filter.text = "#Kyoto -#Nowhere"
        filter.tagContext = QueryTags(MarkTests.state(Self.photos).tags)
        #expect(filter.unknownTags().map(\.reason) == ["no tag is called “Kyoto”", "no tag is called “Nowhere”"])
        #expect(Self.ids("#Kyoto").isEmpty)
        #expect(Self.ids("-#Nowhere") == [1, 2, 3, 4, 5])
    }

    @Test func quotesGroupWordsAndAnUnclosedQuoteRunsToTheEnd() {
        #expect(QueryToken.split("a  \"b c\" #\"To edit\" \"open").map(\.text) == ["a", "b c", "#To edit", "open"])
        #expect(QueryToken.split("x \"b c\"").map(\.offset) == [0, 2])
        #expect(QueryToken.split("x \"b c\"").map(\.length) == [1, 5])
    }

    /// Random queries built from the pieces a query is made of, so most reach the readers of the fields
    /// and their numbers rather than stopping at "no field is called".
    @Test func nothingTypedCanCrashIt() {
        var random = SeededRandom(seed: 1_616)  // the same inputs on every run
        let pieces = PhotoQuery.fields + [
            ":", "=", "<", ">", "<=", ">=", "..", "-", "#", "\"", " ", "pick", "reject", "untagged", "gps", "red",
            "0", "1", "2.5", "0.5", "2.2", "2.8", "5", "9", "3200", "-1", "1e308", "1e-320", "nan", "inf", "10MB", "kb", "mm",
            "2024", "-06", "-13", "-30", "2024-02-30", "0000", "9999", "řé", "🎉", "\u{1B}[31m", "\u{0}", "\t", "To edit",
        ]
        for _ in 0..<5_000 {
            let count = Int.random(in: 0...8, using: &random)
            let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            let query = PhotoQuery(text)
            for problem in query.problems {
                #expect(problem.offset + problem.length <= text.count)
            }
            _ = Self.ids(text)
        }
        for text in ["rating:2.5", "rating:0.5", "rating:2.2..2.8", "rating>5", "rating<0", "iso>1e308", "size<-1e15", "taken>9999"] {
            _ = Self.ids(text)
        }
    }

    @Test func aChangedTagListIsReadAgainByAQueryThatNamesTags() {
        var state = MarkTests.state(Self.photos, tags: [])
        _ = state.apply(.browsing(.filterTextChanged("pick")))
        #expect(state.list.count == 0, "no tag is Pick yet")
        _ = state.apply(.tags(.tagSaved(PhotoPickKit.Tag(id: 10, name: "Pick", color: nil))))
        #expect(state.listedNames == ["R0001.JPG"])
    }
}
