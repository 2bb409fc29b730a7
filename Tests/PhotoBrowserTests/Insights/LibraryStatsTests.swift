import Foundation
import PhotoPickKit
import Testing
@testable import PhotoBrowser

/// The figures of the photos listed: the timeline at each step, cameras, lenses, the ranges, the marks,
/// and the cull header's counts, on photos whose every figure is known.
@Suite struct LibraryStatsTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let day = 86_400.0
    /// 2024-06-01 00:00 UTC.
    static let june1 = 1_717_200_000.0

    static func photo(_ id: Int, at time: Double?, camera: String?, make: String? = nil, lens: String? = nil, iso: Int? = nil, f: Double? = nil, focal: Double? = nil, tags: [Int] = []) -> Photo {
        var photo = Sample.photo(id, "p\(id).jpg", takenAt: time, tags: tags, lens: lens)
        photo.camera = camera.map { Photo.Camera(make: make, model: $0) }
        if iso != nil || f != nil || focal != nil { photo.exposure = Photo.Exposure(iso: iso, fNumber: f, exposureTime: nil, focalLength: focal) }
        return photo
    }

    /// Pick 10, Reject 11, 3 stars 13, 5 stars 15, Red 20, Blue 23 (`MarkTests.markTags`).
    let photos = [
        photo(1, at: june1 + 3_600, camera: "RICOH GR III", make: "RICOH IMAGING COMPANY, LTD.", iso: 100, f: 2.8, focal: 18.3, tags: [10, 13]),
        photo(2, at: june1 + 7_200, camera: "RICOH GR III", make: "RICOH IMAGING COMPANY, LTD.", iso: 3200, f: 2.8, focal: 18.3, tags: [11]),
        photo(3, at: june1 + 2 * day, camera: "X-T5", make: "FUJIFILM", lens: "XF23mmF1.4 R LM WR", iso: 160, f: 1.4, focal: 23, tags: [15, 13, 20]),
        photo(4, at: june1 + 40 * day, camera: "X-T5", make: "FUJIFILM", lens: "XF23mmF1.4 R LM WR", iso: 12800, f: 16, focal: 23, tags: [23, 1]),
        photo(5, at: nil, camera: nil, tags: [10, 11]),
    ]

    func state() -> BrowserState { MarkTests.state(photos) }

    @Test func theTimelineCountsEachDayMonthAndYearWithItsTermAndTheGapsBetween() {
        let stats = state().libraryStats(timeZone: Self.utc)
        #expect(stats.undated == 1 && stats.summary.photos == 5)
        let days = stats.timeline(.day)
        #expect(days.count == 41, "every day from the first to the last")
        #expect(days.first == LibraryStats.Bar(label: "2024-06-01", count: 2, term: "taken:2024-06-01"))
        #expect(days[2] == LibraryStats.Bar(label: "2024-06-03", count: 1, term: "taken:2024-06-03"))
        #expect(days.last?.label == "2024-07-11" && days.last?.count == 1)
        #expect(days.map(\.count).reduce(0, +) == 4)
        #expect(stats.timeline(.month).map { "\($0.label)=\($0.count)" } == ["2024-06=3", "2024-07=1"])
        #expect(stats.timeline(.year) == [LibraryStats.Bar(label: "2024", count: 4, term: "taken:2024")])
        #expect(stats.step(fitting: 41) == .day && stats.step(fitting: 40) == .month && stats.step(fitting: 1) == .year)
        // In Tokyo the first photos are taken on 1 June at 9 and 10; in Los Angeles on 31 May.
        #expect(state().libraryStats(timeZone: TimeZone(identifier: "America/Los_Angeles")!).timeline(.day).first?.label == "2024-05-31")
        // Every term lists exactly the bar's photos.
        var filtered = state()
        for bar in days + stats.timeline(.month) where bar.count > 0 {
            _ = filtered.apply(.browsing(.filterTextChanged(bar.term!)))
            #expect(filtered.list.count == bar.count, "\(bar.term!) lists \(filtered.list.count)")
        }
    }

    @Test func camerasLensesAndRangesAreNamedAsPhotographersNameThemAndTheirTermsListThem() {
        let stats = state().libraryStats(timeZone: Self.utc)
        // Two each, so by name; a model that repeats its maker's first word stands alone.
        #expect(stats.cameras.map(\.label) == ["FUJIFILM X-T5", "RICOH GR III", "no camera recorded"])
        #expect(stats.cameras.first?.term == "camera=X-T5")
        #expect(stats.cameras.first { $0.label == "RICOH GR III" }?.term == "camera=\"RICOH GR III\"")
        #expect(stats.cameras.last?.term == nil)
        #expect(stats.lenses.first == LibraryStats.Bar(label: "XF23mmF1.4 R LM WR", count: 2, term: "lens=\"XF23mmF1.4 R LM WR\""))
        #expect(stats.focalLengths.first { $0.count > 0 && $0.term != nil }?.label == "16–20 mm")
        #expect(stats.focalLengths.first { $0.label == "21–28 mm" }?.count == 2)
        #expect(stats.focalLengths.last == LibraryStats.Bar(label: "not recorded", count: 1, term: nil))
        // From the first range a photo is in to the last, the empty ones between kept.
        #expect(stats.isos.map(\.count) == [1, 1, 0, 0, 0, 1, 0, 1, 1] && stats.isos.last?.label == "not recorded")
        #expect(stats.focalLengths.map(\.label) == ["16–20 mm", "21–28 mm", "not recorded"])
        #expect(stats.apertures.first == LibraryStats.Bar(label: "≤ f/1.4", count: 1, term: "f>0 f<=1.4"))
        #expect(stats.apertures.first { $0.label == "> f/11" } == LibraryStats.Bar(label: "> f/11", count: 1, term: "f>11"))
        var filtered = state()
        for bar in stats.cameras + stats.lenses + stats.focalLengths + stats.isos + stats.apertures {
            guard let term = bar.term else { continue }
            _ = filtered.apply(.browsing(.filterTextChanged(term)))
            #expect(filtered.list.count == bar.count, "\(term) lists \(filtered.list.count), the bar says \(bar.count)")
        }
    }

    /// Figures at the ends of ranges, between them, nought (an adapted lens), and cameras whose names
    /// hold each other's: every bar's term lists exactly its photos, in any locale's digits.
    @Test func aBarsTermListsExactlyItsPhotosAtTheEdgesOfItsRange() {
        let awkward = [
            Self.photo(1, at: Self.june1, camera: "X100V", make: "FUJIFILM", lens: "XF23mmF2 R WR", iso: 200, f: 2.0, focal: 20),
            Self.photo(2, at: Self.june1, camera: "X100VI", make: "FUJIFILM", lens: "XF23mmF2 R WR II", iso: 201, f: 2.05, focal: 20.04),
            Self.photo(3, at: Self.june1, camera: "X100V", make: "FUJIFILM", iso: 0, f: 0, focal: 0),
            Self.photo(4, at: Self.june1, camera: "NIKON Z 6", make: "NIKON CORPORATION", iso: 100, f: 1.45, focal: 15.5),
            Self.photo(5, at: Self.june1, camera: "NIKON Z 6", make: "Nikon", iso: 12_800, f: 11, focal: 300.5),
        ]
        let state = MarkTests.state(awkward)
        let stats = state.libraryStats(timeZone: Self.utc)
        #expect(stats.cameras.map(\.label) == ["FUJIFILM X100V", "NIKON Z 6", "FUJIFILM X100VI"], "one bar for a model the makers spell two ways")
        #expect(stats.focalLengths.last == LibraryStats.Bar(label: "not recorded", count: 1, term: nil), "0 mm is not recorded")
        #expect(stats.focalLengths.first { $0.label == "16–20 mm" }?.count == 2 && stats.focalLengths.first { $0.label == "21–28 mm" }?.count == 1)
        var filtered = state
        for bar in stats.cameras + stats.lenses + stats.focalLengths + stats.isos + stats.apertures {
            guard let term = bar.term else { continue }
            _ = filtered.apply(.browsing(.filterTextChanged(term)))
            #expect(PhotoQuery(term).problems.isEmpty && filtered.list.count == bar.count, "\(term) lists \(filtered.list.count), the bar \(bar.label) says \(bar.count)")
        }
        // Terms are written in digits the query reads whatever the locale.
        #expect((stats.apertures + stats.focalLengths).compactMap(\.term).allSatisfy { !$0.contains(",") })
    }

    @Test func marksAreCountedOnceEachAndTheSummaryAddsUp() {
        let state = state()
        let stats = state.libraryStats(timeZone: Self.utc)
        // 1: pick, 3 stars. 2: reject. 3: 5 stars (over 3), red. 4: blue. 5: pick and reject, which reads as a pick.
        #expect(stats.summary == CullSummary(photos: 5, picked: 2, rejected: 1, rated: 2, labelled: 2, untouched: 0))
        #expect(stats.ratings.map(\.count) == [1, 0, 1, 0, 0, 3])
        #expect(stats.ratings.last == LibraryStats.Bar(label: "unrated", count: 3, term: "rating:0"))
        #expect(stats.flags.map(\.count) == [2, 1, 2])
        #expect(stats.labels.filter { $0.count > 0 }.map(\.label) == ["red", "blue"])
        #expect(state.cullSummary() == stats.summary)
        // The filter narrows both; the untouched are those with no mark.
        var filtered = state
        _ = filtered.apply(.browsing(.filterTextChanged("taken:2024-06")))
        #expect(filtered.cullSummary() == CullSummary(photos: 3, picked: 1, rejected: 1, rated: 2, labelled: 1, untouched: 0))
        var plain = MarkTests.state([Self.photo(9, at: nil, camera: nil), Self.photo(8, at: nil, camera: nil, tags: [3])])
        #expect(plain.cullSummary() == CullSummary(photos: 2, picked: 0, rejected: 0, rated: 0, labelled: 0, untouched: 2), "an ordinary tag is no mark")
        _ = plain.apply(.browsing(.filterTextChanged("nothing matches this")))
        #expect(plain.libraryStats().timeline(.day).isEmpty && plain.libraryStats().summary.photos == 0)
    }

    @Test func aDayNumberIsTheCalendarsDayFrom1600To2370() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.utc
        // From 1600 (Foundation keeps the Julian calendar before 1582) to 2370.
        for day in stride(from: -135_000, through: 146_097, by: 97) {
            let date = Date(timeIntervalSince1970: Double(day) * Self.day)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let civil = CivilDate(day: day)
            #expect(civil.year == parts.year && civil.month == parts.month && civil.day == parts.day, "day \(day)")
        }
    }
}
