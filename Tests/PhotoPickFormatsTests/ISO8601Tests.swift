import Foundation
import PhotoPickFormats
import Testing

struct ISO8601Tests {
    @Test func writesWholeSecondsAndMillisecondsAsTheAPIDoes() {
        #expect(ISO8601.string(seconds: 1_717_250_602) == "2024-06-01T14:03:22Z")
        #expect(ISO8601.string(seconds: 1_717_250_602, milliseconds: 50) == "2024-06-01T14:03:22.050Z")
        #expect(ISO8601.string(seconds: 0) == "1970-01-01T00:00:00Z")
        #expect(ISO8601.string(seconds: -1) == "1969-12-31T23:59:59Z")
        #expect(ISO8601.string(seconds: 951_782_400) == "2000-02-29T00:00:00Z")
    }

    @Test func writesADateToTheNearestMillisecond() {
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_717_250_602)) == "2024-06-01T14:03:22Z")
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_717_250_602.5064)) == "2024-06-01T14:03:22.506Z")
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
    }

    @Test func readsWhatItWrites() {
        for seconds: Int64 in [0, -86_401, 951_782_400, 1_717_250_602, 4_102_444_799] {
            #expect(ISO8601.seconds(from: ISO8601.string(seconds: seconds)) == seconds)
            #expect(ISO8601.date(from: ISO8601.string(seconds: seconds, milliseconds: 250))?.timeIntervalSince1970 == Double(seconds) + 0.25)
        }
    }

    @Test(arguments: ["2024-06-01 14:03:22Z", "2024-06-01T14:03:22,5Z", "2024-06-01T16:03:22+0200", "2016-12-31T23:59:60Z"])
    func theClientAcceptsWhatTheServerRefuses(text: String) {
        #expect(ISO8601.date(from: text) != nil)
        #expect(ISO8601.seconds(from: text) == nil)
    }

    @Test(arguments: ["", "2024-06-01", "2024-06-01T14:03:22", "2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z",
                      "2024-01-01T12:99:00Z", "2024-06-01T14:03:22.Z", "2024-06-01T14:03:22+2:00", "2024-06-01T14:03:22Zx"])
    func bothRefuseMalformedDates(text: String) {
        #expect(ISO8601.date(from: text) == nil)
        #expect(ISO8601.seconds(from: text) == nil)
    }

    @Test func anOffsetMovesTheInstantAndAFractionIsKeptOnlyByTheClient() {
        #expect(ISO8601.seconds(from: "2024-06-01T16:03:22.987+02:00") == 1_717_250_602)
        #expect(ISO8601.date(from: "2024-06-01T16:03:22.25+02:00")?.timeIntervalSince1970 == 1_717_250_602.25)
        #expect(ISO8601.date(from: "2024-06-01t12:03:22-02:00")?.timeIntervalSince1970 == 1_717_250_602)
    }
}
