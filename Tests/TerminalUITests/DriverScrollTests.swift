import Foundation
import PhotoPickKit
import Testing
@testable import TerminalUI

/// ncurses never scrolls the terminal: a terminal moves an image's pixels with the rows they lie on,
/// so rows that moved are written where they now are, every one of them.
@MainActor
@Suite struct DriverScrollTests {
    /// A frame of distinct numbered rows from `first`, the header and the last row fixed.
    static func frame(first: Int, width: Int = 80, height: Int = 24) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        canvas.draw("header", x: 0, y: 0, style: .plain)
        for row in 1..<(height - 1) { canvas.draw("row \(first + row) of the list, a name", x: 2, y: row, style: .plain) }
        canvas.draw("status", x: 0, y: height - 1, style: .plain)
        return canvas
    }

    /// The bytes the driver writes to go from one frame to the next.
    static func update(from old: Canvas, to new: Canvas) throws -> String {
        let output = try #require(tmpfile())
        let input = try #require(fopen("/dev/null", "r"))
        defer { fclose(output); fclose(input) }
        let driver = TerminalDriver(clock: .continuous)
        try driver.startHeadless(width: old.width, height: old.height, output: output, input: input)
        defer { driver.stop() }
        #expect(!driver.canScroll, "ncurses was started on a description it can scroll with")
        driver.present(old)
        fflush(output)
        let start = ftell(output)
        driver.present(new)
        fflush(output)
        let end = ftell(output)
        fseek(output, start, SEEK_SET)
        var bytes = [UInt8](repeating: 0, count: end - start)
        _ = fread(&bytes, 1, bytes.count, output)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test(arguments: [1, -1, 5, -7])
    func movedRowsAreWrittenNotScrolled(shift: Int) throws {
        let written = try Self.update(from: Self.frame(first: 0), to: Self.frame(first: shift))
        // Every row between the header and the status is written to (each differs from what was there
        // in its number), the cursor sent to it by row (`CSI row d` or `CSI row;col H`); scrolled, only
        // the row that came in would be. And none of scrolling's sequences: a scroll region, index and
        // reverse index, line insertion and deletion, scroll up and down.
        for row in 2...23 { #expect(written.contains("\u{1B}[\(row)d") || written.contains("\u{1B}[\(row);"), "row \(row) not written") }
        let scrolling = try Regex(#"\e\[\d*;\d*r|\eM|\eD|\e\[\d*[LMST]"#)
        #expect(written.firstMatch(of: scrolling) == nil, "\(written.debugDescription)")
    }
}
