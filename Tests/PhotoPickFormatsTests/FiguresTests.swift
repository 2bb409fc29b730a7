import Foundation
import PhotoPickFormats
import Testing

/// The one way sizes, counts and times are written.
struct FiguresTests {
    @Test func nothingIsWrittenAsPeopleWriteIt() {
        #expect(Figures.bytes(0) == "0 B", "not Foundation's “Zero kB”")
        #expect(Figures.count(0, "photo") == "no photos" && Figures.count(1, "photo") == "1 photo")
        #expect(Figures.count(2_000, "photo") == "\(2_000.formatted()) photos" && Figures.count(3, "burst", plural: "bursts") == "3 bursts")
        #expect(Figures.bytes(5_400_000) == Int64(5_400_000).formatted(.byteCount(style: .file)))
    }

    @Test func timesAreWrittenToTheUnitThatMatters() {
        #expect(Figures.span(minutes: 0) == "1 min" && Figures.span(minutes: 40) == "40 min")
        #expect(Figures.span(minutes: 320) == "5 h 20 min" && Figures.span(minutes: 60) == "1 h" && Figures.span(minutes: 3300) == "2 d 7 h")
        #expect(Figures.clock(seconds: 41.2) == "0:42" && Figures.clock(seconds: 725) == "12:05" && Figures.clock(seconds: 3723) == "1:02:03")
        #expect(Figures.clock(seconds: nil) == "--:--" && Figures.clock(seconds: .infinity) == "--:--")
        #expect(Figures.elapsed(milliseconds: 350) == "350 ms" && Figures.elapsed(milliseconds: 30_400) == "30 s")
    }
}
