import Foundation
import Testing
@testable import PhotoBrowser

/// The bulk-edit file reads back exactly what the user changed, and rejects a damaged file whole, naming the line.
@Suite struct BulkEditFileTests {
    typealias Entry = BulkEditFile.Entry
    typealias Change = BulkEditFile.Change

    private static let photos = [
        Entry(id: 40, filename: "IMG_0040.JPG", title: "Beach"),
        Entry(id: 41, filename: "IMG_0041.JPG"),
        Entry(id: 42, filename: "IMG_0042.JPG"),
    ]
    private static let lines = ["40\tIMG_0040.JPG\tBeach", "41\tIMG_0041.JPG\t", "42\tIMG_0042.JPG\t"]

    /// The file of `photos` with its 1-based line `number` replaced by `text`.
    private static func file(replacing number: Int, with text: String) -> String {
        var edited = lines
        edited[number - 1] = text
        return edited.joined(separator: "\n")
    }

    private func rejection(of text: String, original: [Entry] = photos) -> BulkEditFile.Problem? {
        do {
            _ = try BulkEditFile.parse(text, original: original)
            return nil
        } catch {
            return error
        }
    }

    @Test func hostileValuesSurviveARoundTripWithNoChanges() throws {
        let long = String(repeating: "a", count: 251) + ".JPG"
        let entries = [
            Entry(id: 1, filename: "a\tb\nc\rd\\e.jpg", title: "\u{1B}[2J\u{7}clear\u{85}"),
            Entry(id: 2, filename: "../x", title: #"\t is not a tab \\"#),
            Entry(id: 3, filename: "🏖️ Beach.HEIC", title: "# not a comment\0"),
            Entry(id: 4, filename: long, title: nil),
            Entry(id: 5, filename: " spaced ", title: "\r\n"),
        ]
        let text = BulkEditFile.render(entries)
        #expect(try BulkEditFile.parse(text, original: entries) == [])
        let controls = text.unicodeScalars.filter { $0.value < 0x20 && $0 != "\t" && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
        #expect(controls.isEmpty, "nothing in the file can act on the terminal")
        #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == entries.count)
        #expect(text.hasSuffix("1\ta\\tb\\nc\\rd\\\\e.jpg\t\\x1b[2J\\x07clear\\x85\n" + "2\t../x\t\\\\t is not a tab \\\\\\\\\n" + "3\t🏖️ Beach.HEIC\t# not a comment\\x00\n" + "4\t\(long)\t\n" + "5\t spaced \t\\r\\n\n"))
    }

    @Test func onlyTheRenameTheRetitleAndTheClearedTitleAreChanges() throws {
        let original = [
            Entry(id: 1, filename: "A.JPG", title: "Beach"),
            Entry(id: 2, filename: "B.JPG"),
            Entry(id: 3, filename: "C.JPG", title: "Old"),
            Entry(id: 4, filename: "D.JPG", title: ""),
            Entry(id: 5, filename: "E.JPG", title: "Same"),
        ]
        let long = String(repeating: "e\u{301}", count: 127) + "x"
        // Lines out of order: the changes still come in the order of the photos.
        let text = "3\tC.JPG\t\n5\tE.JPG\tSame\n2\tB.JPG\tNew\\ttitle\n4\tD.JPG\t\n1\t\(long)\tBeach\n"
        #expect(try BulkEditFile.parse(text, original: original) == [
            Change(id: 1, filename: long),
            Change(id: 2, title: "New\ttitle"),
            Change(id: 3, title: .some(nil)),
        ])
    }

    /// Damaged files: the line replaced, its text, the line the problem names, and what its reason says.
    static let damaged: [(Int, String, Int?, String)] = [
        (2, "41\tIMG_0041.JPG", 2, "expected id, name and title separated by tabs, found 2 fields on photo 41's line; keep the two tabs"),
        (2, "41 IMG_0041.JPG ", 2, "found 1 field; keep the two tabs"),
        (2, "41\tIMG\t0041.JPG\t", 2, #"found 4 fields on photo 41's line; keep two tabs, and write a tab inside a value as \t"#),
        (2, "4l\tIMG_0041.JPG\t", 2, "id 4l is not a positive whole number; keep each line's id as it was"),
        (3, "0\tIMG_0042.JPG\t", 3, "id 0 is not a positive whole number"),
        (3, "123\tIMG_0042.JPG\t", 3, "id 123 is not one of the photos being edited; keep each line's id as it was"),
        (3, "40\tIMG_0042.JPG\t", 3, "photo 40 is listed twice (also line 1); keep one line per photo"),
        (2, "41\tIMG_0041.JPG\tsun\\qset", 2, #"photo 41's title has an unknown escape \q; write a backslash itself as \\"#),
        (2, "41\tIMG_0041.JPG\tsunset\\", 2, "photo 41's title ends in a lone backslash"),
        (2, "41\tIMG\\x1_0041.JPG\t", 2, #"photo 41's file name has \x not followed by two hex digits"#),
        (3, "# 42 deleted", nil, "photo 42 (IMG_0042.JPG) is missing; every photo keeps its line — to leave it unchanged, leave its line as it was"),
        (2, "41\t  \t", 2, "photo 41 needs a file name; type one, or put back IMG_0041.JPG"),
        (2, "41\tsub/IMG_0041.JPG\t", 2, "photo 41's file name cannot contain /"),
        (2, "41\tIMG\\x00.JPG\t", 2, "photo 41's file name cannot contain a NUL character"),
        (3, "42\t..\t", 3, #"photo 42's file name cannot be "..""#),
        (3, "42\t" + String(repeating: "e\u{301}", count: 128) + "\t", 3, "photo 42's file name is 256 characters long; shorten it to 255 or fewer"),
        (3, "42\timg_0040.jpg\t", 3, "photo 42's new name img_0040.jpg is already the name of photo 40 (line 1); names must differ"),
        (1, "40\tIMG_0041.jpg\tBeach", 1, "photo 40's new name IMG_0041.jpg is already the name of photo 41 (line 2)"),
        ]

    @Test(arguments: damaged)
    func aDamagedLineIsRejectedNamingTheLineAndThePhoto(replaced: Int, text: String, line: Int?, reason: String) throws {
        let problem = try #require(rejection(of: Self.file(replacing: replaced, with: text)))
        #expect(problem.line == line)
        #expect(problem.reason.contains(reason), "\(problem)")
        #expect(problem.description == (line.map { "line \($0): " } ?? "") + problem.reason)
    }

    @Test func twoNewNamesEqualAfterNormalisingAndIgnoringCaseAreRejected() throws {
        let text = Self.lines[0] + "\n41\tCaf\u{E9}.jpg\t\n42\tCAFE\u{301}.JPG\t"
        #expect(rejection(of: text)?.description == "line 3: photo 42's new name CAFE\u{301}.JPG is also line 2's new name (photo 41); names must differ")
    }

    @Test func namesThatWereAlreadyEqualAreNotAProblem() throws {
        let original = [Entry(id: 1, filename: "A.JPG"), Entry(id: 2, filename: "a.jpg"), Entry(id: 3, filename: "B.JPG")]
        #expect(try BulkEditFile.parse("1\tA.JPG\t\n2\ta.jpg\t\n3\tC.JPG\t", original: original) == [Change(id: 3, filename: "C.JPG")])
        // Swapping two names is fine: after the edit they still differ.
        let pair = [Entry(id: 1, filename: "A.JPG"), Entry(id: 2, filename: "B.JPG")]
        #expect(try BulkEditFile.parse("1\tB.JPG\t\n2\tA.JPG\t", original: pair) == [Change(id: 1, filename: "B.JPG"), Change(id: 2, filename: "A.JPG")])
    }

    @Test func aByteOrderMarkCRLFLineEndsCommentsAndBlankLinesAreTolerated() throws {
        let edited = [Self.lines[0], "41\tIMG_0041.JPG\tSun", Self.lines[2]].joined(separator: "\r\n")
        let text = "\u{FEFF}# header\r\n\r\n   \r\n" + edited + "\r\n# end"
        #expect(try BulkEditFile.parse(text, original: Self.photos) == [Change(id: 41, title: "Sun")])
        // Line numbers count every line of the edited file, comments and blank lines included.
        let broken = "\u{FEFF}# header\r\n\r\n" + Self.lines[0] + "\r\n41\tIMG_0041.JPG\r\n" + Self.lines[2]
        #expect(rejection(of: broken)?.line == 4)
    }

    @Test func theRenderedHeaderIsCommentsAndAnUneditedFileChangesNothing() throws {
        let text = BulkEditFile.render(Self.photos)
        #expect(text.hasSuffix("\n" + Self.lines.joined(separator: "\n") + "\n"))
        #expect(text.split(separator: "\n").prefix { !$0.hasPrefix("40\t") }.allSatisfy { $0.hasPrefix("#") })
        #expect(try BulkEditFile.parse(text, original: Self.photos) == [])
    }

    @Test func summaryCountsRenamesAndRetitles() {
        #expect(BulkEditFile.summary([]) == "nothing changed")
        #expect(BulkEditFile.summary([Change(id: 1, filename: "a")]) == "1 renamed")
        #expect(BulkEditFile.summary([Change(id: 1, title: .some(nil))]) == "1 retitled")
        let changes = [Change(id: 1, filename: "a", title: .some(nil)), Change(id: 2, title: "x"), Change(id: 3, filename: "b")]
        #expect(BulkEditFile.summary(changes) == "2 renamed, 2 retitled")
    }
}
