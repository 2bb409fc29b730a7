import Testing
@testable import TerminalUI

@Suite struct TOMLDocumentTests {
    /// A config in the shape photopick reads, touching most of the syntax.
    static let realisticConfig = """
        # photopick configuration
        server = "https://photos.example.com"   # where the library lives
        page-size = 200
        preview.scale = 0.5

        [keys]
        down = "j"
        up = 'k'
        quit = ["q", "ctrl-c",]   # two ways out
        "select all" = "\\u0061"

        [ui.colors]
        accent = 0xFF8800
        dim = true
        columns = [
            1, 2,   # left
            3,
        ]
        banner = \"\"\"
        Welcome to \\
            photopick\"\"\"
        path = '''C:\\photos'''
        """

    // MARK: Documents

    @Test func realisticConfigFlattensIntoEntriesInFileOrder() throws {
        let document = try TOMLDocument(parsing: Self.realisticConfig)
        #expect(document.entries.map(\.dottedKey) == [
            "server", "page-size", "preview.scale",
            "keys.down", "keys.up", "keys.quit", "keys.\"select all\"",
            "ui.colors.accent", "ui.colors.dim", "ui.colors.columns", "ui.colors.banner", "ui.colors.path",
        ])
        #expect(document.entries.map(\.line) == [2, 3, 4, 7, 8, 9, 10, 13, 14, 15, 19, 22])
        #expect(document.entry("keys", "quit")?.value == .array([.string("q"), .string("ctrl-c")]))
        #expect(document.entry("keys", "select all")?.value == .string("a"))
        #expect(document.entry("ui", "colors", "accent")?.value == .integer(0xFF8800))
        #expect(document.entry("ui", "colors", "columns")?.value == .array([.integer(1), .integer(2), .integer(3)]))
        #expect(document.entry("ui", "colors", "banner")?.value == .string("Welcome to photopick"))
        #expect(document.entry("ui", "colors", "path")?.value == .string("C:\\photos"))
    }

    @Test func entryLooksUpFullPathsOnly() throws {
        let document = try TOMLDocument(parsing: "[keys]\ndown = \"j\"\n")
        let entry = try #require(document.entry("keys", "down"))
        #expect(entry.path == ["keys", "down"])
        #expect(entry.value == .string("j"))
        #expect(entry.line == 2)
        #expect(document.entry("down") == nil)
        #expect(document.entry("keys") == nil)
        #expect(document.entry("keys", "down", "more") == nil)
    }

    @Test func emptyAndCommentOnlyDocumentsHaveNoEntries() throws {
        #expect(try TOMLDocument(parsing: "").entries.isEmpty)
        #expect(try TOMLDocument(parsing: "\n\n  # just a comment\n\t\n# another").entries.isEmpty)
        #expect(try TOMLDocument(parsing: "[empty]\n").entries.isEmpty)
    }

    @Test func dottedKeyQuotesOnlyComponentsThatAreNotBare() {
        let entry = TOMLDocument.Entry(path: ["keys", "select all", "a.b", "", "x_y-Z9", "q\"\\"], value: .boolean(true), line: 1)
        #expect(entry.dottedKey == #"keys."select all"."a.b"."".x_y-Z9."q\"\\""#)
    }

    @Test func commentsMayFollowValuesAndHeaders() throws {
        let document = try TOMLDocument(parsing: """
            [keys] # the keys
            down = "j#not a comment" # a comment
            up = 'k'#tight
            count = 3 # three
            """)
        #expect(document.entry("keys", "down")?.value == .string("j#not a comment"))
        #expect(document.entry("keys", "up")?.value == .string("k"))
        #expect(document.entry("keys", "count")?.value == .integer(3))
    }

    @Test func tableHeadersNestAndAllowSpacesAndQuotedNames() throws {
        let document = try TOMLDocument(parsing: """
            [ ui . colors ]
            a = 1
            [ui."odd name".'x.y']
            b = 2
            [ui]
            c = 3
            """)
        #expect(document.entries.map(\.path) == [["ui", "colors", "a"], ["ui", "odd name", "x.y", "b"], ["ui", "c"]])
        #expect(document.entries.map(\.line) == [2, 4, 6])
    }

    @Test func dottedAndQuotedKeysBuildFullPaths() throws {
        let document = try TOMLDocument(parsing: """
            [keys]
            nav.down = "j"
            nav . up = "k"
            "with space".'lit' = 1
            "" = 2
            Key_A-1 = 3
            """)
        #expect(document.entries.map(\.path) == [
            ["keys", "nav", "down"], ["keys", "nav", "up"], ["keys", "with space", "lit"], ["keys", ""], ["keys", "Key_A-1"],
        ])
        #expect(document.entry("keys", "nav", "up")?.dottedKey == "keys.nav.up")
    }

    // MARK: Strings

    @Test func basicStringsDecodeEveryEscape() throws {
        let document = try TOMLDocument(parsing: #"s = "q\" b\\ \b \t \n \f \r \e u\u00E9 U\U0001F600 tab:\#t""#)
        #expect(document.entry("s")?.value == .string("q\" b\\ \u{8} \t \n \u{C} \r \u{1B} u\u{E9} U\u{1F600} tab:\t"))
    }

    @Test func literalStringsKeepBackslashes() throws {
        let document = try TOMLDocument(parsing: #"s = 'C:\Users\n "quoted"'"#)
        #expect(document.entry("s")?.value == .string(#"C:\Users\n "quoted""#))
    }

    @Test func multilineBasicStringsTrimTheFirstNewlineAndJoinBackslashedLines() throws {
        let document = try TOMLDocument(parsing: "a = \"\"\"\nfirst\n  second \\n\"\"\"\nb = \"\"\"one \\   \n\n   two\"\"\"\nc = \"\"\"\"quoted\"\"\"\"\"\nd = 1")
        #expect(document.entry("a")?.value == .string("first\n  second \n"))
        #expect(document.entry("b")?.value == .string("one two"))
        #expect(document.entry("c")?.value == .string("\"quoted\"\""))
        #expect(document.entry("b")?.line == 4)
        #expect(document.entry("d")?.line == 8)
    }

    @Test func multilineStringsRejectMoreThanFiveClosingQuotes() {
        #expect(failure("a = 1\nb = \"\"\"x\"\"\"\"\"\"")
            == TOMLError(line: 2, key: "b", reason: "too many quotes in a row in a multi-line string"))
        #expect(failure("a = 1\nb = '''x''''''")?.line == 2)
    }

    @Test func multilineLiteralStringsKeepEverythingButTheFirstNewline() throws {
        let document = try TOMLDocument(parsing: "a = '''\nC:\\path\\\n  \"x\" ''\n'''\nb = 2")
        #expect(document.entry("a")?.value == .string("C:\\path\\\n  \"x\" ''\n"))
        #expect(document.entry("b")?.line == 5)
    }

    // MARK: Numbers, booleans, arrays

    @Test func integersTakeSignsSeparatorsAndPrefixes() throws {
        let document = try TOMLDocument(parsing: """
            a = 42
            b = +17
            c = -0
            d = 1_000_000
            e = 0xDEAD_beef
            f = 0o755
            g = 0b1010
            h = 9223372036854775807
            i = -9223372036854775808
            j = 0x0001
            """)
        #expect(document.entries.map(\.value) == [
            .integer(42), .integer(17), .integer(0), .integer(1_000_000), .integer(0xDEAD_BEEF),
            .integer(0o755), .integer(10), .integer(Int.max), .integer(Int.min), .integer(1),
        ])
    }

    @Test func floatsIncludeExponentsInfinityAndNaN() throws {
        let document = try TOMLDocument(parsing: """
            a = 1.5
            b = -0.25
            c = 1e3
            d = 6.626E-34
            e = 1_000.000_1
            f = inf
            g = -inf
            h = +inf
            i = nan
            j = -nan
            k = 0e0
            l = 1e05
            """)
        let values = document.entries.map(\.value)
        #expect(Array(values[0..<8]) == [
            .float(1.5), .float(-0.25), .float(1000), .float(6.626e-34), .float(1000.0001),
            .float(.infinity), .float(-.infinity), .float(.infinity),
        ])
        for value in values[8..<10] {
            guard case .float(let number) = value else { Issue.record("\(value) is not a float"); continue }
            #expect(number.isNaN)
        }
        #expect(Array(values[10...]) == [.float(0), .float(100_000)])
    }

    @Test func booleans() throws {
        let document = try TOMLDocument(parsing: "yes = true\nno = false")
        #expect(document.entries.map(\.value) == [.boolean(true), .boolean(false)])
    }

    @Test func arraysMixTypesNestSpanLinesAndTakeCommentsAndTrailingCommas() throws {
        let document = try TOMLDocument(parsing: """
            empty = []
            blank = [ # nothing here
            ]
            mixed = [1, "two", 3.0, false, ['nested', []]]
            long = [
              # leading comment
              "a",  # after a
              "b"
              ,
              "c",
            ]
            after = 1
            """)
        #expect(document.entry("empty")?.value == .array([]))
        #expect(document.entry("blank")?.value == .array([]))
        #expect(document.entry("mixed")?.value == .array([
            .integer(1), .string("two"), .float(3), .boolean(false), .array([.string("nested"), .array([])]),
        ]))
        #expect(document.entry("long")?.value == .array([.string("a"), .string("b"), .string("c")]))
        #expect(document.entry("after")?.line == 12)
    }

    @Test func typeNamesReadAsPhrases() {
        #expect(TOMLValue.string("").typeName == "a string")
        #expect(TOMLValue.integer(1).typeName == "an integer")
        #expect(TOMLValue.float(1).typeName == "a number")
        #expect(TOMLValue.boolean(true).typeName == "true or false")
        #expect(TOMLValue.array([]).typeName == "an array")
    }

    @Test func acceptsCRLFLineEndingsAndALeadingByteOrderMark() throws {
        let document = try TOMLDocument(parsing: "\u{FEFF}# bom\r\n[keys]\r\ndown = \"j\"\r\ntext = \"\"\"\r\nx\r\ny\"\"\"\r\nup = 'k'\r\n")
        #expect(document.entries.map(\.dottedKey) == ["keys.down", "keys.text", "keys.up"])
        #expect(document.entries.map(\.line) == [3, 4, 7])
        #expect(document.entry("keys", "text")?.value == .string("x\ny"))
        #expect(throws: TOMLError(line: 3, key: "up", reason: "unterminated string")) {
            try TOMLDocument(parsing: "\u{FEFF}a = 1\r\n\r\nup = \"k\r\n")
        }
    }

    // MARK: Errors

    @Test func errorDescriptionsNameTheLineAndKey() {
        #expect(TOMLError(line: 3, key: "keys.down", reason: "unterminated string").description
            == "line 3, key keys.down: unterminated string")
        #expect(TOMLError(line: 3, key: nil, reason: "expected '=' after the key").description
            == "line 3: expected '=' after the key")
    }

    @Test func duplicateKeysReportTheSecondLine() throws {
        let error = try #require(failure("# c\n[keys]\ndown = \"j\"\n\nup = \"k\"\n\ndown = \"n\"\n"))
        #expect(error == TOMLError(line: 7, key: "keys.down", reason: "duplicate key, first defined on line 3"))
        #expect(failure("a.b = 1\nx = 2\na.b = 3")?.line == 3)
        #expect(failure("\"a\" = 1\na = 2") == TOMLError(line: 2, key: "a", reason: "duplicate key, first defined on line 1"))
    }

    @Test func aKeyCannotBeBothAValueAndATable() {
        #expect(failure("a = 1\n\n[a]\nb = 2")
            == TOMLError(line: 3, key: "a", reason: "duplicate key, first defined on line 1"))
        #expect(failure("a = 1\n[x]\n[a.b]")
            == TOMLError(line: 3, key: "a", reason: "duplicate key, first defined on line 1"))
        #expect(failure("a.b = 1\nc = 0\na = 2")
            == TOMLError(line: 3, key: "a", reason: "duplicate key, already a table from line 1"))
        #expect(failure("a = 1\na.b = 2")
            == TOMLError(line: 2, key: "a", reason: "duplicate key, first defined on line 1"))
        #expect(failure("[t.sub]\nx = 1\n[t]\nsub = 2")
            == TOMLError(line: 4, key: "t.sub", reason: "duplicate key, already a table from line 1"))
    }

    @Test func aTableHeaderMayAppearOnlyOnce() {
        #expect(failure("[keys]\ndown = \"j\"\n[ui]\n[keys]\n")
            == TOMLError(line: 4, key: "keys", reason: "duplicate table, first defined on line 1"))
        #expect(failure("[a]\nb.c = 1\n[a.b]")
            == TOMLError(line: 3, key: "a.b", reason: "duplicate table, already defined by dotted keys on line 2"))
        #expect(failure("[a.b]\nx = 1\n[a]\nb.y = 2")
            == TOMLError(line: 4, key: "a.b", reason: "duplicate table, already defined by a [table] header on line 1"))
        #expect(failure("[a.b]\n[a]\n[a]")
            == TOMLError(line: 3, key: "a", reason: "duplicate table, first defined on line 2"))
        #expect(failure("[a.b.c]\n[a]\nb.y = 1\n[a.b]")
            == TOMLError(line: 4, key: "a.b", reason: "duplicate table, already defined by dotted keys on line 3"))
    }

    @Test func implicitTablesMayBeDefinedLaterAndDottedTablesTakeSubtables() throws {
        let document = try TOMLDocument(parsing: "[a.b.c]\nx = 1\n[a]\ny = 2\nb.w = 5\n[t]\nu.v = 3\n[t.u.w]\nz = 4\n")
        #expect(document.entries.map(\.dottedKey) == ["a.b.c.x", "a.y", "a.b.w", "t.u.v", "t.u.w.z"])
    }

    @Test func aKeyNeedsAnEqualsSign() {
        #expect(failure("[keys]\ndown = \"j\"\n\nup \"k\"")
            == TOMLError(line: 4, key: nil, reason: "expected '=' after the key"))
        #expect(failure("a = 1\nb: 2")?.reason == "expected '=' after the key")
        #expect(failure("a = 1\nlonely")?.line == 2)
        #expect(failure("a = 1\n= 2") == TOMLError(line: 2, key: nil, reason: "missing key before '='"))
        #expect(failure("a = 1\na. = 2")?.line == 2)
    }

    @Test func aKeyNeedsAValue() {
        #expect(failure("[keys]\ndown =\nup = 'k'") == TOMLError(line: 2, key: "keys.down", reason: "missing value"))
        #expect(failure("a = 1\nb = # nothing") == TOMLError(line: 2, key: "b", reason: "missing value"))
        #expect(failure("a = 1\nb = ") == TOMLError(line: 2, key: "b", reason: "missing value"))
    }

    @Test func unterminatedStringsReportWhereTheyStart() {
        #expect(failure("[keys]\nup = 'k'\ndown = \"j\nx = 1")
            == TOMLError(line: 3, key: "keys.down", reason: "unterminated string"))
        #expect(failure("a = 1\nb = 'open") == TOMLError(line: 2, key: "b", reason: "unterminated string"))
        #expect(failure("a = 1\nb = \"\"\"\none\ntwo\n")
            == TOMLError(line: 2, key: "b", reason: "unterminated string"))
        #expect(failure("a = 1\nb = '''one\"\"\"\n''\n")
            == TOMLError(line: 2, key: "b", reason: "unterminated string"))
        #expect(failure("a = 1\n\"open = 2") == TOMLError(line: 2, key: nil, reason: "unterminated string"))
    }

    @Test func unterminatedArraysReportWhereTheyStart() {
        #expect(failure("a = 1\nlist = [\n  1,\n  2,\n")
            == TOMLError(line: 2, key: "list", reason: "unterminated array"))
        #expect(failure("list = [[1, 2]") == TOMLError(line: 1, key: "list", reason: "unterminated array"))
        let missingComma = failure("list = [\n  1\n  2\n]")
        #expect(missingComma?.line == 3)
        #expect(missingComma?.key == "list")
        #expect(missingComma?.reason == "expected ',' or ']' after an array item, found '2' (the array starts on line 1)")
        #expect(failure("a = [1,,2]")?.reason == "expected a value, found ','")
    }

    @Test func invalidEscapesAndRawControlCharactersAreRejected() {
        #expect(failure("a = 1\nb = \"bad \\q\"") == TOMLError(line: 2, key: "b", reason: "invalid escape '\\q'"))
        #expect(failure("a = 1\nb = \"\\x41\"")?.reason == "invalid escape '\\x'")
        #expect(failure("a = 1\nb = \"\\u12\"")?.reason == "invalid escape: \\u needs 4 hex digits")
        #expect(failure("a = 1\nb = \"\\UFFFFFFFF\"")?.line == 2)
        #expect(failure("a = 1\nb = \"\\uD800\"")?.reason == "invalid escape \\uD800: not a unicode character")
        #expect(failure("a = 1\nb = \"\"\"\nok\n\\y\"\"\"") == TOMLError(line: 4, key: "b", reason: "invalid escape '\\y'"))
        #expect(failure("a = 1\nb = \"x\u{01}\"")
            == TOMLError(line: 2, key: "b", reason: "control character U+0001 in a string must be written as an escape"))
        #expect(failure("a = 1\nb = 'x\u{7F}'")?.line == 2)
        #expect(failure("a = 1\nb = '''\n\n\u{00}'''")?.line == 4)
        #expect(failure("a = 1\nb = \"x\ry\"")?.line == 2)
    }

    @Test(arguments: ["1__0", "1_", "0x", "0X10", "+0x10", "0xG", "0b102", "1.", "1.e5", "1e", "1e+", "1.5.3", "1_.5", "--1", "+", "12abc", "0o8"])
    func invalidNumbersAreRejected(_ number: String) {
        #expect(failure("ok = 1\n\nn = \(number)\n")
            == TOMLError(line: 3, key: "n", reason: "invalid number '\(number)'"))
    }

    @Test func leadingZerosAreRejected() {
        #expect(failure("a = 1\nb = 007") == TOMLError(line: 2, key: "b", reason: "leading zeros are not allowed in '007'"))
        #expect(failure("a = 1\nb = -01.5")?.reason == "leading zeros are not allowed in '-01.5'")
        #expect(failure("a = 1\nb = [0, 00]")?.line == 2)
    }

    @Test func integersThatOverflowAreRejected() {
        #expect(failure("a = 1\nb = 9223372036854775808")
            == TOMLError(line: 2, key: "b", reason: "integer '9223372036854775808' is too large"))
        #expect(failure("a = 1\nb = -9_223_372_036_854_775_809")?.line == 2)
        #expect(failure("a = 1\nb = 0xFFFFFFFFFFFFFFFF")?.reason == "integer '0xFFFFFFFFFFFFFFFF' is too large")
        #expect(failure("a = 1\nb = 1e400")?.reason == "number '1e400' is too large")
    }

    @Test func textAfterAValueOrHeaderIsRejected() {
        #expect(failure("a = 1\nb = 2 3") == TOMLError(line: 2, key: "b", reason: "unexpected '3' after the value"))
        #expect(failure("a = 1\nb = \"x\" \"y\"")?.reason == "unexpected '\"y\"' after the value")
        #expect(failure("a = 1\nb = [1] ]")?.line == 2)
        #expect(failure("a = 1\nb = true,")?.reason == "unexpected ',' after the value")
        #expect(failure("a = 1\n[keys] down = 'j'")
            == TOMLError(line: 2, key: nil, reason: "unexpected 'down' after the table header"))
    }

    @Test func malformedTableHeadersAreRejected() {
        #expect(failure("a = 1\n[keys\ndown = 'j'") == TOMLError(line: 2, key: nil, reason: "invalid table header: missing ']'"))
        #expect(failure("a = 1\n[]")?.reason == "invalid table header: expected a name, found ']'")
        #expect(failure("a = 1\n[a.]")?.line == 2)
        #expect(failure("a = 1\n[.a]")?.line == 2)
        #expect(failure("a = 1\n[a b]")?.reason == "invalid table header: unexpected 'b'")
        #expect(failure("a = 1\n[a!]")?.line == 2)
    }

    @Test func inlineTablesAreNotSupported() {
        let reason = "inline tables are not supported; use a [table] section"
        #expect(failure("a = 1\n\ncolors = { accent = 1 }") == TOMLError(line: 3, key: "colors", reason: reason))
        #expect(failure("[t]\nlist = [\n  1,\n  {x = 1},\n]") == TOMLError(line: 4, key: "t.list", reason: reason))
    }

    @Test func datesAndTimesAreNotSupported() {
        let reason = "dates and times are not supported here"
        for value in ["1979-05-27", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00", "07:32:00", "1979-05-27T00:32:00.999-07:00"] {
            #expect(failure("a = 1\n\nwhen = \(value)") == TOMLError(line: 3, key: "when", reason: reason), "\(value)")
        }
        #expect(failure("a = [\n1979-05-27]") == TOMLError(line: 2, key: "a", reason: reason))
    }

    @Test func arraysOfTablesAreNotSupported() {
        #expect(failure("a = 1\n\n[[photos]]\nid = 1")
            == TOMLError(line: 3, key: nil, reason: "arrays of tables are not supported"))
    }

    @Test func unquotedWordsGetAHint() {
        #expect(failure("a = 1\ntheme = dark") == TOMLError(line: 2, key: "theme", reason: "invalid value 'dark'; put strings in quotes"))
        #expect(failure("a = 1\nflag = True")?.reason == "invalid value 'True'; write true or false in lower case")
    }

    @Test func controlCharactersInCommentsAreRejected() {
        #expect(failure("a = 1\n# bad \u{07} bell")
            == TOMLError(line: 2, key: nil, reason: "control character U+0007 is not allowed in a comment"))
        #expect(failure("a = 1 # ok\t tab") == nil)
    }

    // MARK: Robustness

    @Test func everyPrefixOfARealisticConfigParsesOrFailsWithoutCrashing() {
        let scalars = Array(Self.realisticConfig.unicodeScalars)
        var failures = 0
        for length in 0...scalars.count {
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[..<length])
            do {
                _ = try TOMLDocument(parsing: String(view))
            } catch {
                failures += 1
                #expect(error.line >= 1 && error.line <= 22)
                #expect(!error.reason.isEmpty)
            }
        }
        #expect(failures > 0)
        #expect(failures < scalars.count)
    }

    @Test func everySingleCharacterEditParsesOrFailsWithoutCrashing() {
        let scalars = Array(Self.realisticConfig.unicodeScalars)
        let replacements: [Unicode.Scalar] = ["\"", "'", "[", "]", "{", "=", ".", ",", "#", "\\", "\n", "\r", "\u{00}", "_", "0", "e"]
        for position in scalars.indices {
            for replacement in replacements {
                var edited = scalars
                edited[position] = replacement
                var view = String.UnicodeScalarView()
                view.append(contentsOf: edited)
                do {
                    _ = try TOMLDocument(parsing: String(view))
                } catch {
                    #expect(error.line >= 1 && error.line <= 23)
                }
            }
        }
    }

    @Test func deeplyNestedArraysFailInsteadOfOverflowingTheStack() {
        let deep = "a = 1\nb = " + String(repeating: "[", count: 100_000)
        #expect(failure(deep) == TOMLError(line: 2, key: "b", reason: "arrays are nested too deeply"))
        let fine = "b = " + String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        #expect(failure(fine) == nil)
    }

    // MARK: Helpers

    /// The error parsing `text` throws, or nil if it parses.
    private func failure(_ text: String) -> TOMLError? {
        do {
            _ = try TOMLDocument(parsing: text)
            return nil
        } catch {
            return error
        }
    }
}
