import Foundation
import Testing
@testable import PhotoBrowser

/// What a photographer types to fix capture times: a signed shift or the zone the camera's clock was in.
@Suite struct TimeAdjustmentTests {
    private let prague = TimeZone(identifier: "Europe/Prague")!

    private func utc(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    @Test func everyShiftFormReadsAsItsSeconds() throws {
        let cases: [(String, Int)] = [
            ("+1h", 3_600), ("-2h", -7_200), ("+1d", 86_400), ("+90s", 90), ("-15m", -900), ("+1h30m", 5_400),
            ("+1d2h3m4s", 93_784), ("-00:14:30", -870), ("+01:00", 3_600), ("+1:02:03", 3_723),
            ("  +1H30M\n", 5_400), ("+1h 30m", 5_400), ("+366d", 31_622_400),
        ]
        for (text, seconds) in cases {
            #expect(try TimeAdjustment(parsing: text) == .shift(seconds: seconds), "\(text)")
        }
    }

    @Test func everyZoneFormReadsAsItsZone() throws {
        let cases: [(String, TimeZone)] = [
            ("zone Europe/Prague", prague), ("tz=Europe/Prague", prague), ("Europe/Prague", prague), ("europe/prague", prague),
            ("UTC+2", TimeZone(secondsFromGMT: 7_200)!), ("UTC-05:30", TimeZone(secondsFromGMT: -19_800)!),
        ]
        for (text, zone) in cases {
            #expect(try TimeAdjustment(parsing: text) == .zone(zone), "\(text)")
        }
    }

    @Test func badInputGetsOneLineNamingItAndWhatWorks() {
        let cases: [(text: String, says: String)] = [
            ("1h", "a shift needs a sign; write +1h or -1h"),
            ("+0h", "a shift of zero changes nothing"),
            ("-0:00", "a shift of zero changes nothing"),
            ("+30m1h", "units go d, h, m, s, each at most once; write +1h30m"),
            ("+1h2h", "each at most once"),
            ("+1:75", "minutes must be under 60"),
            ("+1:30:60", "seconds must be under 60"),
            ("Mars/Olympus", "is not a shift or a time zone"),
            ("zone Mars/Olympus", "“Mars/Olympus” is not a time zone"),
            ("+367d", "is more than a year; a shift can be at most 366d"),
            ("+1.5h", "amounts are whole numbers"),
            ("+1w", "“w” is not a unit"),
            ("+15", "15 needs a unit"),
            ("UTC+15", "is not an offset"),
            ("UTC", "changes nothing"),
        ]
        for (text, says) in cases {
            let problem = #expect(throws: EditRequest.Problem.self, "\(text)") { try TimeAdjustment(parsing: text) }
            #expect(problem?.description.contains("“\(text)”") == true, "\(problem?.description ?? text) names the input")
            #expect(problem?.description.contains(says) == true, "\(problem?.description ?? text)")
        }
    }

    @Test func aZoneMovesEachTimeByItsOffsetThatDay() {
        let zone = TimeAdjustment.zone(prague)
        #expect(zone.applied(to: utc("2024-07-15T14:00:00Z")) == utc("2024-07-15T12:00:00Z"), "summer time: −2h")
        #expect(zone.applied(to: utc("2024-01-15T14:00:00Z")) == utc("2024-01-15T13:00:00Z"), "winter time: −1h")
        // Around the autumn change the offset is the one in force at that wall time, not at the stored one.
        #expect(zone.applied(to: utc("2024-10-27T01:30:00Z")) == utc("2024-10-26T23:30:00Z"))
        #expect(zone.applied(to: utc("2024-10-27T03:30:00Z")) == utc("2024-10-27T02:30:00Z"))
        #expect(TimeAdjustment.shift(seconds: -870).applied(to: utc("2024-07-15T14:00:00Z")) == utc("2024-07-15T13:45:30Z"))
    }

    @Test func labelsReadAsDurationsOrTheZoneAndShiftsParseBack() throws {
        #expect(TimeAdjustment.shift(seconds: 5_400).label == "+1h 30m")
        #expect(TimeAdjustment.shift(seconds: -870).label == "-14m 30s")
        #expect(TimeAdjustment.shift(seconds: 86_400).label == "+1d")
        #expect(TimeAdjustment.shift(seconds: 93_784).label == "+1d 2h 3m 4s")
        #expect(TimeAdjustment.zone(prague).label == "as local time in Europe/Prague")
        #expect(try TimeAdjustment(parsing: "UTC+2").label == "as local time in UTC+2")
        #expect(try TimeAdjustment(parsing: "UTC-05:30").label == "as local time in UTC-5:30")
        for seconds in [5_400, -870, 86_400, -93_784] {
            #expect(try TimeAdjustment(parsing: TimeAdjustment.shift(seconds: seconds).label) == .shift(seconds: seconds))
        }
    }
}
