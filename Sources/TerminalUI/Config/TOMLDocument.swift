// A strict reader for the subset of TOML that photopick's config file uses.
//
// Supported: comments, `[table]` headers, bare/quoted/dotted keys, basic, literal and multi-line
// strings, integers (decimal, hex, octal, binary), floats, booleans and arrays. Inline tables,
// arrays of tables and dates are rejected with a message saying so. Every error carries the line
// it was found on and, once the key is known, the key's full dotted path.

import PhotoPickKit

/// A TOML document, flattened into entries with full key paths, in file order.
public struct TOMLDocument: Sendable, Equatable {
    /// One key and its value; the enclosing `[table]` and any dotted parts are folded into `path`.
    public struct Entry: Sendable, Equatable {
        /// The full key path, e.g. `["keys", "down"]` for `down = ...` under `[keys]`.
        public let path: [String]
        public let value: TOMLValue
        /// The 1-based line where the key starts.
        public let line: Int

        /// The path joined by ".", quoting components that are not bare keys.
        public var dottedKey: String { TOMLKey.dotted(path) }
    }

    /// Every key/value pair, in the order they appear in the file.
    public let entries: [Entry]

    /// Parses `text`, throwing the first problem found.
    public init(parsing text: String) throws(TOMLError) {
        var parser = TOMLParser(text)
        entries = try parser.parseDocument()
    }

    /// The entry at this path, if any.
    public func entry(_ path: String...) -> Entry? {
        entries.first { $0.path == path }
    }
}

/// A value on the right of `=`. Tables appear only as key paths, never as values.
public enum TOMLValue: Sendable, Equatable {
    case string(String), integer(Int), float(Double), boolean(Bool), array([TOMLValue])

    /// How the type reads in a message: "expected a string, found \(value.typeName)".
    public var typeName: String {
        switch self {
        case .string: "a string"
        case .integer: "an integer"
        case .float: "a number"
        case .boolean: "true or false"
        case .array: "an array"
        }
    }
}

/// Why a document could not be read, and where.
public struct TOMLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the problem.
    public let line: Int
    /// The full dotted key the problem belongs to, when known.
    public let key: String?
    /// A short phrase, lower-case first, without a trailing period.
    public let reason: String

    /// "line 3, key keys.down: unterminated string" or "line 3: expected '=' after the key".
    public var description: String {
        if let key { "line \(line), key \(key): \(reason)" } else { "line \(line): \(reason)" }
    }
}

// MARK: - Keys

/// Spelling of keys, shared by the parser and `Entry.dottedKey`.
private enum TOMLKey {
    /// Characters allowed in a bare (unquoted) key.
    static func isBare(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
        default: false
        }
    }

    /// The path joined by ".", with non-bare components written as basic strings.
    static func dotted(_ path: [String]) -> String {
        path.map(component).joined(separator: ".")
    }

    /// One component, quoted and escaped (as a JSON string is, which TOML reads alike) only if it
    /// cannot be written bare.
    private static func component(_ name: String) -> String {
        if !name.isEmpty, name.unicodeScalars.allSatisfy(isBare) { return name }
        return JSONValue.string(name).description
    }
}

/// Control characters that TOML forbids unescaped (tab is always allowed, newline only where noted).
private func isControl(_ c: Unicode.Scalar) -> Bool {
    c.value < 0x20 || c.value == 0x7F
}

/// `value` in upper-case hex, zero-padded to at least `digits` places.
private func hex(_ value: UInt32, digits: Int) -> String {
    let text = String(value, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
}

/// Builds a string from scalars.
private func makeString(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var view = String.UnicodeScalarView()
    view.append(contentsOf: scalars)
    return String(view)
}

// MARK: - Parser

/// Reads a document one statement at a time, tracking the line it is on.
private struct TOMLParser {
    /// How a key path came to exist, to tell legal reopenings from duplicates.
    private enum Definition {
        case value, header, implicitTable, dottedTable
    }

    /// Arrays nested deeper than this are rejected rather than risking the stack.
    private static let maxArrayDepth = 64

    private let text: [Unicode.Scalar]
    private var index = 0
    private var line = 1
    /// The path of the most recent `[table]` header; empty at the top.
    private var table: [String] = []
    /// Every key path defined so far, with how and on which line.
    private var definitions: [[String]: (kind: Definition, line: Int)] = [:]
    private var entries: [TOMLDocument.Entry] = []

    /// Keeps the scalars, folding CRLF into LF and dropping a leading byte-order mark.
    init(_ source: String) {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(source.utf8.count)
        for c in source.unicodeScalars {
            if c == "\n", scalars.last == "\r" { scalars.removeLast() }
            scalars.append(c)
        }
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        text = scalars
    }

    mutating func parseDocument() throws(TOMLError) -> [TOMLDocument.Entry] {
        while current != nil {
            skipSpaces()
            switch current {
            case "["?:
                try parseHeader()
                try finishLine(after: "the table header", key: nil)
            case nil, "\n"?, "#"?:
                try finishLine(after: "", key: nil)
            default:
                let path = try parseKeyValue()
                try finishLine(after: "the value", key: path)
            }
        }
        return entries
    }

    // MARK: Cursor

    private var current: Unicode.Scalar? { peek(0) }

    private func peek(_ offset: Int) -> Unicode.Scalar? {
        let position = index + offset
        return position < text.count ? text[position] : nil
    }

    /// Moves past the current scalar, counting lines.
    private mutating func advance() {
        guard let c = current else { return }
        index += 1
        if c == "\n" { line += 1 }
    }

    private mutating func skipSpaces() {
        while current == " " || current == "\t" { advance() }
    }

    /// Skips a `#` comment up to (not including) the end of the line.
    private mutating func skipComment() throws(TOMLError) {
        guard current == "#" else { return }
        advance()
        while let c = current, c != "\n" {
            if isControl(c), c != "\t" { throw error("\(describe(c)) is not allowed in a comment") }
            advance()
        }
    }

    /// Accepts trailing spaces and a comment, then the end of the line or file.
    private mutating func finishLine(after what: String, key: [String]?) throws(TOMLError) {
        skipSpaces()
        try skipComment()
        switch current {
        case nil: return
        case "\n"?: advance()
        default: throw error("unexpected \(describeText()) after \(what)", key: key)
        }
    }

    private func error(_ reason: String, key: [String]? = nil, line: Int? = nil) -> TOMLError {
        TOMLError(line: line ?? self.line, key: key.map(TOMLKey.dotted), reason: reason)
    }

    // MARK: Statements

    /// `[a.b]`: makes `a.b` the table that following keys go into.
    private mutating func parseHeader() throws(TOMLError) {
        let headerLine = line
        advance()
        if current == "[" { throw error("arrays of tables are not supported") }
        let path = try parseKeyPath(inHeader: true)
        skipSpaces()
        switch current {
        case "]"?: advance()
        case nil, "\n"?: throw error("invalid table header: missing ']'")
        default: throw error("invalid table header: unexpected \(describeText())")
        }
        try defineTable(path, line: headerLine)
        table = path
    }

    /// `key = value`: records an entry and returns its full path.
    private mutating func parseKeyValue() throws(TOMLError) -> [String] {
        let keyLine = line
        let keyPath = try parseKeyPath(inHeader: false)
        let path = table + keyPath
        skipSpaces()
        guard current == "=" else { throw error("expected '=' after the key") }
        advance()
        try defineValue(path, line: keyLine)
        skipSpaces()
        let value = try parseValue(key: path, depth: 0)
        entries.append(TOMLDocument.Entry(path: path, value: value, line: keyLine))
        return path
    }

    /// One or more key components separated by dots, with optional spaces around the dots.
    private mutating func parseKeyPath(inHeader: Bool) throws(TOMLError) -> [String] {
        var path: [String] = []
        while true {
            skipSpaces()
            path.append(try parseKeyComponent(inHeader: inHeader, afterDot: !path.isEmpty))
            skipSpaces()
            guard current == "." else { return path }
            advance()
        }
    }

    private mutating func parseKeyComponent(inHeader: Bool, afterDot: Bool) throws(TOMLError) -> String {
        switch current {
        case "\""?:
            if peek(1) == "\"", peek(2) == "\"" { throw error("a key cannot be a multi-line string") }
            return try parseBasicString(key: nil)
        case "'"?:
            if peek(1) == "'", peek(2) == "'" { throw error("a key cannot be a multi-line string") }
            return try parseLiteralString(key: nil)
        case let c? where TOMLKey.isBare(c):
            let start = index
            while let c = current, TOMLKey.isBare(c) { advance() }
            return makeString(text[start..<index])
        default:
            if inHeader { throw error("invalid table header: expected a name, found \(describe(current))") }
            if afterDot { throw error("expected a key after '.', found \(describe(current))") }
            if current == "=" { throw error("missing key before '='") }
            throw error("expected a key, found \(describe(current))")
        }
    }

    // MARK: Definitions

    /// Records a `[table]` header, creating its parents implicitly.
    private mutating func defineTable(_ path: [String], line: Int) throws(TOMLError) {
        for length in 1..<path.count {
            let parent = Array(path[..<length])
            if let existing = definitions[parent] {
                if existing.kind == .value { throw duplicate(parent, existing, line: line) }
            } else {
                definitions[parent] = (.implicitTable, line)
            }
        }
        guard let existing = definitions[path] else {
            definitions[path] = (.header, line)
            return
        }
        switch existing.kind {
        case .implicitTable: definitions[path] = (.header, line)
        case .header: throw error("duplicate table, first defined on line \(existing.line)", key: path, line: line)
        case .dottedTable:
            throw error("duplicate table, already defined by dotted keys on line \(existing.line)", key: path, line: line)
        case .value: throw duplicate(path, existing, line: line)
        }
    }

    /// Records a key, creating the tables named by its dotted parts.
    private mutating func defineValue(_ path: [String], line: Int) throws(TOMLError) {
        for length in (table.count + 1)..<max(table.count + 1, path.count) {
            let parent = Array(path[..<length])
            guard let existing = definitions[parent] else {
                definitions[parent] = (.dottedTable, line)
                continue
            }
            switch existing.kind {
            case .dottedTable: break
            case .implicitTable: definitions[parent] = (.dottedTable, line)
            case .header:
                throw error(
                    "duplicate table, already defined by a [table] header on line \(existing.line)",
                    key: parent, line: line)
            case .value: throw duplicate(parent, existing, line: line)
            }
        }
        if let existing = definitions[path] { throw duplicate(path, existing, line: line) }
        definitions[path] = (.value, line)
    }

    private func duplicate(_ path: [String], _ existing: (kind: Definition, line: Int), line: Int) -> TOMLError {
        let reason = existing.kind == .value
            ? "duplicate key, first defined on line \(existing.line)"
            : "duplicate key, already a table from line \(existing.line)"
        return error(reason, key: path, line: line)
    }

    // MARK: Values

    private mutating func parseValue(key: [String], depth: Int) throws(TOMLError) -> TOMLValue {
        switch current {
        case nil, "\n"?, "#"?:
            throw error("missing value", key: key)
        case "\""?:
            if peek(1) == "\"", peek(2) == "\"" { return .string(try parseMultilineString(key: key, literal: false)) }
            return .string(try parseBasicString(key: key))
        case "'"?:
            if peek(1) == "'", peek(2) == "'" { return .string(try parseMultilineString(key: key, literal: true)) }
            return .string(try parseLiteralString(key: key))
        case "["?:
            return try parseArray(key: key, depth: depth)
        case "{"?:
            throw error("inline tables are not supported; use a [table] section", key: key)
        default:
            return try parseBareValue(key: key)
        }
    }

    /// `[1, "two", [3]]`, possibly over several lines with comments and a trailing comma.
    private mutating func parseArray(key: [String], depth: Int) throws(TOMLError) -> TOMLValue {
        let startLine = line
        guard depth < Self.maxArrayDepth else { throw error("arrays are nested too deeply", key: key) }
        advance()
        var items: [TOMLValue] = []
        while true {
            try skipArraySpace()
            if current == nil { throw error("unterminated array", key: key, line: startLine) }
            if current == "]" {
                advance()
                return .array(items)
            }
            items.append(try parseValue(key: key, depth: depth + 1))
            try skipArraySpace()
            switch current {
            case ","?: advance()
            case "]"?:
                advance()
                return .array(items)
            case nil: throw error("unterminated array", key: key, line: startLine)
            default:
                let started = line == startLine ? "" : " (the array starts on line \(startLine))"
                throw error("expected ',' or ']' after an array item, found \(describeText())\(started)", key: key)
            }
        }
    }

    /// Spaces, newlines and comments between array items.
    private mutating func skipArraySpace() throws(TOMLError) {
        while true {
            switch current {
            case " "?, "\t"?, "\n"?: advance()
            case "#"?: try skipComment()
            default: return
            }
        }
    }

    /// Booleans and numbers: an unquoted run of characters up to a space or delimiter.
    private mutating func parseBareValue(key: [String]) throws(TOMLError) -> TOMLValue {
        let start = index
        while let c = current, !Self.endsBareValue(c) { advance() }
        let token = Array(text[start..<index])
        let word = makeString(token)
        guard let first = token.first else {
            throw error("expected a value, found \(describe(current))", key: key)
        }
        switch word {
        case "true": return .boolean(true)
        case "false": return .boolean(false)
        default: break
        }
        if Self.isDateOrTime(token) { throw error("dates and times are not supported here", key: key) }
        let signed = first == "+" || first == "-"
        if ("0"..."9").contains(first) || signed || word == "inf" || word == "nan" {
            return try parseNumber(token, key: key)
        }
        if word.lowercased() == "true" || word.lowercased() == "false" {
            throw error("invalid value \(quote(token)); write true or false in lower case", key: key)
        }
        throw error("invalid value \(quote(token)); put strings in quotes", key: key)
    }

    private static func endsBareValue(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case " ", "\t", "\n", "#", ",", "[", "]", "{", "}", "\"", "'", "=": true
        default: false
        }
    }

    /// `1979-05-27...` or `07:32...`: the start of a TOML date or time.
    private static func isDateOrTime(_ token: [Unicode.Scalar]) -> Bool {
        func matches(_ pattern: String) -> Bool {
            let shape = Array(pattern.unicodeScalars)
            guard token.count >= shape.count else { return false }
            return zip(shape, token).allSatisfy { want, have in
                want == "9" ? ("0"..."9").contains(have) : want == have
            }
        }
        return matches("9999-99-99") || matches("99:99")
    }

    /// Integers (with `_` separators and `0x`/`0o`/`0b` prefixes) and floats, including `inf` and `nan`.
    private func parseNumber(_ token: [Unicode.Scalar], key: [String]) throws(TOMLError) -> TOMLValue {
        let invalid = error("invalid number \(quote(token))", key: key)
        var rest = token[...]
        var sign = ""
        if let first = rest.first, first == "+" || first == "-" {
            sign = first == "-" ? "-" : ""
            rest = rest.dropFirst()
        }
        switch makeString(rest) {
        case "inf": return .float(sign == "-" ? -.infinity : .infinity)
        case "nan": return .float(.nan)
        default: break
        }

        // Prefixed integers: no sign, leading zeros allowed.
        if rest.count >= 2, rest.first == "0", let radix = Self.radix(rest.dropFirst().first) {
            guard token.first == "0" else { throw invalid }
            guard let digits = Self.digits(&rest, from: 2, radix: radix), rest.isEmpty else { throw invalid }
            guard let value = Int(digits, radix: radix) else {
                throw error("integer \(quote(token)) is too large", key: key)
            }
            return .integer(value)
        }

        guard let whole = Self.digits(&rest, from: 0, radix: 10) else { throw invalid }
        if whole.count > 1, whole.hasPrefix("0") {
            throw error("leading zeros are not allowed in \(quote(token))", key: key)
        }
        var literal = sign + whole
        var isFloat = false
        if rest.first == "." {
            guard let fraction = Self.digits(&rest, from: 1, radix: 10) else { throw invalid }
            literal += "." + fraction
            isFloat = true
        }
        if rest.first == "e" || rest.first == "E" {
            rest = rest.dropFirst()
            var exponentSign = ""
            if let first = rest.first, first == "+" || first == "-" {
                exponentSign = first == "-" ? "-" : ""
                rest = rest.dropFirst()
            }
            guard let exponent = Self.digits(&rest, from: 0, radix: 10) else { throw invalid }
            literal += "e" + exponentSign + exponent
            isFloat = true
        }
        guard rest.isEmpty else { throw invalid }

        if !isFloat {
            guard let value = Int(literal) else { throw error("integer \(quote(token)) is too large", key: key) }
            return .integer(value)
        }
        guard let value = Double(literal) else { throw invalid }
        guard value.isFinite else { throw error("number \(quote(token)) is too large", key: key) }
        return .float(value)
    }

    private static func radix(_ c: Unicode.Scalar?) -> Int? {
        switch c {
        case "x"?: 16
        case "o"?: 8
        case "b"?: 2
        default: nil
        }
    }

    /// Drops `skip` scalars, then reads digits with single `_` between them; nil if malformed.
    private static func digits(_ rest: inout ArraySlice<Unicode.Scalar>, from skip: Int, radix: Int) -> String? {
        rest = rest.dropFirst(skip)
        var digits = ""
        var afterDigit = false
        while let c = rest.first {
            if c == "_" {
                guard afterDigit, let next = rest.dropFirst().first, isDigit(next, radix: radix) else { return nil }
                afterDigit = false
            } else if isDigit(c, radix: radix) {
                digits.unicodeScalars.append(c)
                afterDigit = true
            } else {
                break
            }
            rest = rest.dropFirst()
        }
        return digits.isEmpty ? nil : digits
    }

    private static func isDigit(_ c: Unicode.Scalar, radix: Int) -> Bool {
        switch radix {
        case 2: ("0"..."1").contains(c)
        case 8: ("0"..."7").contains(c)
        case 16: ("0"..."9").contains(c) || ("a"..."f").contains(c) || ("A"..."F").contains(c)
        default: ("0"..."9").contains(c)
        }
    }

    // MARK: Strings

    /// `"..."` on one line, with escapes. `key` is nil while reading a key.
    private mutating func parseBasicString(key: [String]?) throws(TOMLError) -> String {
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let c = current, c != "\n" else { throw error("unterminated string", key: key) }
            switch c {
            case "\"":
                advance()
                return String(result)
            case "\\":
                advance()
                result.append(try parseEscape(key: key))
            default:
                try checkStringScalar(c, key: key)
                advance()
                result.append(c)
            }
        }
    }

    /// `'...'` on one line, taken as written.
    private mutating func parseLiteralString(key: [String]?) throws(TOMLError) -> String {
        advance()
        var result = String.UnicodeScalarView()
        while true {
            guard let c = current, c != "\n" else { throw error("unterminated string", key: key) }
            advance()
            if c == "'" { return String(result) }
            try checkStringScalar(c, key: key)
            result.append(c)
        }
    }

    /// `"""..."""` or `'''...'''`: a newline right after the opening quotes is dropped, and in
    /// basic strings a backslash at the end of a line joins it to the next non-blank text.
    private mutating func parseMultilineString(key: [String], literal: Bool) throws(TOMLError) -> String {
        let startLine = line
        let quote: Unicode.Scalar = literal ? "'" : "\""
        for _ in 0..<3 { advance() }
        if current == "\n" { advance() }
        var result = String.UnicodeScalarView()
        while true {
            guard let c = current else { throw error("unterminated string", key: key, line: startLine) }
            if c == quote, peek(1) == quote, peek(2) == quote {
                // Up to two quotes may sit just inside the closing three.
                var run = 3
                while peek(run) == quote { run += 1 }
                guard run <= 5 else { throw error("too many quotes in a row in a multi-line string", key: key) }
                for _ in 0..<(run - 3) { result.append(quote) }
                for _ in 0..<run { advance() }
                return String(result)
            }
            if !literal, c == "\\" {
                advance()
                if lineEndsHere() {
                    while current == " " || current == "\t" || current == "\n" { advance() }
                } else {
                    result.append(try parseEscape(key: key))
                }
                continue
            }
            if c != "\n" { try checkStringScalar(c, key: key) }
            advance()
            result.append(c)
        }
    }

    /// Whether only spaces or tabs remain before the end of the line.
    private func lineEndsHere() -> Bool {
        var offset = 0
        while let c = peek(offset) {
            if c == "\n" { return true }
            if c != " ", c != "\t" { return false }
            offset += 1
        }
        return false
    }

    /// The character after a backslash (already consumed).
    private mutating func parseEscape(key: [String]?) throws(TOMLError) -> Unicode.Scalar {
        guard let c = current, c != "\n" else { throw error("invalid escape: '\\' at the end of the line", key: key) }
        advance()
        switch c {
        case "\"": return "\""
        case "\\": return "\\"
        case "b": return "\u{08}"
        case "t": return "\t"
        case "n": return "\n"
        case "f": return "\u{0C}"
        case "r": return "\r"
        case "e": return "\u{1B}"
        case "u": return try parseUnicodeEscape(digits: 4, key: key)
        case "U": return try parseUnicodeEscape(digits: 8, key: key)
        default:
            let shown = isControl(c) || c == " " ? describe(c) : "'\\\(c)'"
            throw error("invalid escape \(shown)", key: key)
        }
    }

    /// `\uXXXX` or `\UXXXXXXXX`, after the `u`.
    private mutating func parseUnicodeEscape(digits count: Int, key: [String]?) throws(TOMLError) -> Unicode.Scalar {
        let letter = count == 4 ? "u" : "U"
        var value: UInt32 = 0
        for _ in 0..<count {
            guard let c = current, Self.isDigit(c, radix: 16), let digit = UInt32(String(c), radix: 16) else {
                throw error("invalid escape: \\\(letter) needs \(count) hex digits", key: key)
            }
            value = value &* 16 &+ digit
            advance()
        }
        guard let scalar = Unicode.Scalar(value) else {
            throw error("invalid escape \\\(letter)\(hex(value, digits: count)): not a unicode character", key: key)
        }
        return scalar
    }

    private func checkStringScalar(_ c: Unicode.Scalar, key: [String]?) throws(TOMLError) {
        if isControl(c), c != "\t" {
            throw error("\(describe(c)) in a string must be written as an escape", key: key)
        }
    }

    // MARK: Messages

    /// A scalar as it reads in a message.
    private func describe(_ c: Unicode.Scalar?) -> String {
        guard let c else { return "the end of the file" }
        if c == "\n" { return "the end of the line" }
        if isControl(c) || c == "\u{FEFF}" { return "control character U+\(hex(c.value, digits: 4))" }
        return "'\(c)'"
    }

    /// The text at the cursor, up to the next space or delimiter, as it reads in a message.
    private func describeText() -> String {
        guard let first = current, !isControl(first) else { return describe(current) }
        var run: [Unicode.Scalar] = [first]
        var offset = 1
        while let c = peek(offset), c != " ", c != "\t", !isControl(c), !"[]{},#=".unicodeScalars.contains(c) {
            run.append(c)
            offset += 1
        }
        return quote(run)
    }

    /// A token in single quotes, shortened if long.
    private func quote(_ token: [Unicode.Scalar]) -> String {
        let limit = 24
        var shown = ""
        for c in token.prefix(limit) {
            if isControl(c) { shown += "\\u" + hex(c.value, digits: 4) } else { shown.unicodeScalars.append(c) }
        }
        return "'" + shown + (token.count > limit ? "…" : "") + "'"
    }
}
