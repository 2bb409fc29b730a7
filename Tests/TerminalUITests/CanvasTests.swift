import CNcursesw
import Foundation
@testable import PhotoBrowser
import PhotoPickKit
import Testing
@testable import TerminalUI

@Suite struct CanvasTests {
    @Test func wideCharactersTakeTwoColumnsAndMarksNone() {
        #expect(DisplayWidth.of("abc") == 3)
        #expect(DisplayWidth.of("東京") == 4)
        #expect(DisplayWidth.of("서울") == 4)
        #expect(DisplayWidth.of("🌅x") == 3)
        #expect(DisplayWidth.of("Žluťoučký") == 9)
        #expect(DisplayWidth.of("e\u{301}") == 1)
        // A joiner sequence is drawn as its first emoji, so it takes that emoji's two columns.
        #expect(DisplayWidth.of("👨‍👩‍👧") == 2)
        #expect(TerminalGlyph("👨‍👩‍👧").text == "👨")
        // Emoji whose width terminals dispute (kitty 0.26 two columns, glibc and xterm one): U+FFFD.
        for disputed in ["🏔️", "🏔", "🗺", "🇨🇿"] {
            #expect(TerminalGlyph(Character(disputed)) == TerminalGlyph(Character("\u{FFFD}")), "\(disputed)")
        }
        #expect(TerminalGlyph("☀️").text == "☀" && TerminalGlyph("🌅").width == 2)
    }

    @Test func widthsAgreeWithTheCLibraryForTheDemoLibrarysScripts() throws {
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil)
        let samples = "Žluťoučký kůň úpěl ďábelské ódy Praha – Karlův most 東京タワー夜景 京都の紅葉 서울 야경 北京故宫 富士山と桜 🌅 🐈 👨 🎉 🎂 🏔 ﾃｽﾄ ＡＢＣ"
        for scalar in samples.unicodeScalars {
            #expect(DisplayWidth.of(scalar) == Int(wcwidth(wchar_t(bitPattern: scalar.value))), "U+\(String(scalar.value, radix: 16))")
        }
    }

    /// One table: photopick's widths are ncurses' (glibc's wcwidth, which ncurses moves the cursor by)
    /// for every assigned scalar, so the canvas and ncurses never disagree about where a cell is.
    @Test func widthsAgreeWithTheCLibraryForEveryScalar() throws {
        try #require(setlocale(LC_CTYPE, "C.UTF-8") != nil)
        var disagreements: [String] = []
        var compared = 0
        for value in UInt32(0x20)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
                  scalar.properties.generalCategory != .privateUse, case let c = Int(wcwidth(wchar_t(bitPattern: value))), c >= 0 else { continue }
            compared += 1
            if DisplayWidth.of(scalar) != c { disagreements.append("U+\(String(value, radix: 16, uppercase: true)): \(DisplayWidth.of(scalar)) vs \(c)") }
        }
        #expect(compared > 100_000)
        #expect(disagreements.isEmpty, "\(disagreements.count): \(disagreements.prefix(60).joined(separator: ", "))")
    }

    @Test func truncationEndsWithAnEllipsisAndNeverSplitsAWideCharacter() {
        var canvas = Canvas(width: 10, height: 1)
        #expect(canvas.draw("東京タワー夜景", x: 0, y: 0) == 9)
        #expect(canvas.text(row: 0) == "東京タワ… ")
        canvas = Canvas(width: 10, height: 1)
        canvas.draw("abcdefghijk", x: 0, y: 0, limit: 6)
        #expect(canvas.text == "abcde…")
        canvas = Canvas(width: 6, height: 1)
        canvas.draw("ab東京", x: 0, y: 0)
        #expect(canvas.text == "ab東京")
        canvas = Canvas(width: 5, height: 1)
        canvas.draw("ab東京", x: 0, y: 0)
        #expect(canvas.text == "ab東…")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var canvas = Canvas(width: 6, height: 1)
        canvas.draw("東京", x: 0, y: 0)
        canvas.draw("x", x: 1, y: 0)
        #expect(canvas.text(row: 0) == " x京  ")
        canvas.draw("y", x: 2, y: 0)
        #expect(canvas.text(row: 0) == " xy   ")
        #expect(canvas[3, 0].width == 1)
    }

    @Test func fillingOverHalfAWideCharacterBlanksTheOtherHalfAndOffCanvasIsANoOp() {
        var canvas = Canvas(width: 8, height: 2)
        canvas.draw("東京タワ", x: 0, y: 0)
        canvas.fill(Rect(x: 1, y: 0, width: 4, height: 1))
        #expect(canvas.text(row: 0) == "      ワ")
        #expect(canvas.cells.prefix(8).allSatisfy { $0.width != 0 || $0.text.isEmpty })
        #expect(canvas[6, 0].width == 2)
        canvas.fill(Rect(x: 50, y: 30, width: 4, height: 4))
        canvas.fill(Rect(x: -10, y: -10, width: 4, height: 4))
        canvas.restyle(Rect(x: 50, y: 30, width: 4, height: 4)) { $0.attributes.insert(.bold) }
        #expect(canvas.text(row: 0) == "      ワ")
    }

    @Test func controlCharactersNeverReachTheCells() {
        var canvas = Canvas(width: 20, height: 1)
        canvas.draw("a\u{1B}[31mb\u{7}", x: 0, y: 0)
        #expect(!canvas.cells.contains { $0.text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } })
    }

    @Test func drawingStaysInsideTheClipAndTheCanvas() {
        var canvas = Canvas(width: 8, height: 2)
        canvas.draw("hello world", x: 2, y: 0, clip: Rect(x: 0, y: 0, width: 6, height: 1))
        canvas.draw("never", x: 0, y: 1, clip: Rect(x: 0, y: 0, width: 6, height: 1))
        canvas.draw("off", x: 7, y: 5)
        canvas.draw("neg", x: -3, y: 0)
        #expect(canvas.lines == ["  hel…", ""])
    }

    @Test func changedRowsAreOnlyTheRowsThatDiffer() {
        var before = Canvas(width: 10, height: 4)
        before.draw("one", x: 0, y: 0)
        before.draw("two", x: 0, y: 2)
        var after = before
        after.draw("TWO", x: 0, y: 2)
        #expect(after.changedRows(since: before) == [2])
        after.restyle(Rect(x: 0, y: 3, width: 2, height: 1)) { $0.attributes.insert(.bold) }
        #expect(after.changedRows(since: before) == [2, 3])
        #expect(Canvas(width: 9, height: 4).changedRows(since: before) == [0, 1, 2, 3])
    }

    @Test func tagColoursMapToTheNearestPaletteColourSkippingSystemColours() {
        #expect(Theme.nearest256(TagColor(red: 255, green: 0, blue: 0)) == 196)
        #expect(Theme.nearest256(TagColor(red: 0, green: 0, blue: 0)) == 16)
        #expect(Theme.nearest256(TagColor(red: 128, green: 128, blue: 128)) == 244)
        #expect(Theme.nearest256(TagColor(hex: "#3b82f6")!) >= 16)
        #expect(Theme.nearest8(TagColor(red: 230, green: 20, blue: 30)) == 1)
        #expect(Theme.nearest8(TagColor(red: 20, green: 200, blue: 40)) == 2)
        let mono = Theme(depth: .monochrome)
        #expect(mono.tagColor(TagColor(red: 255, green: 0, blue: 0)) == .terminalDefault)
    }
}
