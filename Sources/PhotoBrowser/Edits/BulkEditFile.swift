import Foundation

/// The file `Ctrl-E` and `photopick edit --editor` open in the user's editor: one line per photo, read back as changes.
///
/// Every value is escaped so a photo is always exactly one line and nothing in the file can act on the
/// terminal or the editor. Any problem in the edited file rejects the whole edit: a file half understood
/// must never rename half the photos.
package struct BulkEditFile: Sendable {
    /// One photo as the file lists it.
    package struct Entry: Sendable, Equatable {
        /// The photo's id, which keys its line.
        package var id: Int
        /// The photo's file name.
        package var filename: String
        /// The photo's title; nil when it has none.
        package var title: String?

        /// Photo `id`, named `filename` and titled `title`.
        package init(id: Int, filename: String, title: String? = nil) {
            self.id = id
            self.filename = filename
            self.title = title
        }
    }

    /// What the edited file asks of one photo: a new file name and/or title, nil where unchanged.
    package struct Change: Sendable, Equatable {
        /// The photo's id.
        package var id: Int
        /// The new file name; nil when unchanged.
        package var filename: String?
        /// The new title: nil when unchanged, `.some(nil)` when cleared.
        package var title: String??

        /// A change to photo `id`: nil leaves a field as it was.
        package init(id: Int, filename: String? = nil, title: String?? = nil) {
            self.id = id
            self.filename = filename
            self.title = title
        }
    }

    /// Why an edited file cannot be applied: one line naming the line at fault and what to fix.
    package struct Problem: Error, Equatable, CustomStringConvertible {
        /// The 1-based line of the edited file at fault; nil when the problem is a line that is not there.
        package let line: Int?
        /// What is wrong and how to fix it.
        package let reason: String
        /// `line 7: reason`, or the reason alone when no line is at fault.
        package var description: String { line.map { "line \($0): \(reason)" } ?? reason }

        /// A problem with `line`, or with the file as a whole when nil.
        init(line: Int?, _ reason: String) {
            self.line = line
            self.reason = reason
        }
    }

    /// One photo's line as read from the edited file.
    private struct Row {
        let line: Int
        let id: Int
        let filename: String
        let title: String?
        let isRenamed: Bool
    }

    private static let header = #"""
        # photopick bulk edit. One line per photo: id, file name and title, separated by one tab.
        # Edit a file name or a title; keep each line's id and its two tabs.
        # In a value, \t is a tab, \n a newline, \r a carriage return, \\ a backslash, \x1b a control character.
        # An empty title clears it. Do not delete or add lines.
        # Save and quit to review the changes; quit with an error (:cq in vi) to cancel.
        # Lines starting with # and blank lines are ignored.

        """#

    /// The file for `entries`: the header, then one line per photo in the order given.
    package static func render(_ entries: [Entry]) -> String {
        var text = header
        for entry in entries {
            text += "\(entry.id)\t\(escape(entry.filename))\t\(escape(entry.title ?? ""))\n"
        }
        return text
    }

    /// The changes the edited `text` asks of `original`, in the order of `original`; throws on any problem, applying nothing.
    package static func parse(_ text: String, original: [Entry]) throws(Problem) -> [Change] {
        let originals = Dictionary(original.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var rows: [Int: Row] = [:]
        var number = 0
        for line in lines(of: text) {
            number += 1
            guard let row = try row(line, number: number, originals: originals) else { continue }
            if let earlier = rows[row.id] {
                throw Problem(line: number, "photo \(row.id) is listed twice (also line \(earlier.line)); keep one line per photo")
            }
            rows[row.id] = row
        }
        let missing = original.filter { rows[$0.id] == nil }
        if let first = missing.first {
            let others = missing.count > 1 ? ", and \(missing.count - 1) more" : ""
            throw Problem(line: nil, "photo \(first.id) (\(escape(first.filename))) is missing\(others); every photo keeps its line — to leave it unchanged, leave its line as it was")
        }
        try checkNamesDiffer(rows.values.sorted { $0.line < $1.line })
        return original.compactMap { entry in rows[entry.id].flatMap { change(from: entry, to: $0) } }
    }

    /// `12 renamed, 3 retitled`, leaving out a count of zero; `nothing changed` when `changes` is empty.
    package static func summary(_ changes: [Change]) -> String {
        let renamed = changes.count { $0.filename != nil }
        let retitled = changes.count { $0.title != nil }
        let parts = [(renamed, "renamed"), (retitled, "retitled")].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return parts.isEmpty ? "nothing changed" : parts.joined(separator: ", ")
    }

    /// `value` as one field of the file: backslash, tab, newline and CR as `\\` `\t` `\n` `\r`, other controls as `\xHH`.
    package static func escape(_ value: String) -> String {
        var escaped = ""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped += #"\\"#
            case "\t": escaped += #"\t"#
            case "\n": escaped += #"\n"#
            case "\r": escaped += #"\r"#
            case "\u{00}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                let digits = String(scalar.value, radix: 16)
                escaped += #"\x"# + (digits.count < 2 ? "0" : "") + digits
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }

    /// The value a field of the file stands for; the problem's reason reads on from "photo 40's title ".
    static func unescape(_ field: Substring) throws(Problem) -> String {
        let fix = #"write a backslash itself as \\"#
        var value = String.UnicodeScalarView()
        var scalars = field.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\\" else {
                value.append(scalar)
                continue
            }
            switch scalars.next() {
            case "\\"?: value.append("\\")
            case "t"?: value.append("\t")
            case "n"?: value.append("\n")
            case "r"?: value.append("\r")
            case "x"?:
                guard let high = scalars.next().flatMap(hexDigit), let low = scalars.next().flatMap(hexDigit) else {
                    throw Problem(line: nil, #"has \x not followed by two hex digits; write a control character as \x1b, or "# + fix)
                }
                value.append(Unicode.Scalar(high << 4 | low))
            case let other?:
                throw Problem(line: nil, #"has an unknown escape \"# + escape(String(other)) + "; " + fix)
            case nil:
                throw Problem(line: nil, "ends in a lone backslash; " + fix)
            }
        }
        return String(value)
    }

    /// The lines of `text`, without a leading byte order mark or the CR of a CRLF line end.
    private static func lines(of text: String) -> [Substring.UnicodeScalarView] {
        var scalars = Substring(text).unicodeScalars
        if scalars.first == "\u{FEFF}" { scalars.removeFirst() }
        // Split by scalar: as Characters, "\r\n" is one, and would never equal "\n".
        return scalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.last == "\r" ? line.dropLast() : line
        }
    }

    /// The photo on line `number`, or nil for a comment or blank line.
    private static func row(_ line: Substring.UnicodeScalarView, number: Int, originals: [Int: Entry]) throws(Problem) -> Row? {
        if line.first == "#" || line.allSatisfy(\.properties.isWhitespace) { return nil }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(Substring.init)
        let idText = fields[0].trimmingCharacters(in: .whitespaces)
        let id = idText.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) ? Int(idText).flatMap { $0 > 0 ? $0 : nil } : nil
        guard fields.count == 3 else {
            let whose = id.map { " on photo \($0)'s line" } ?? ""
            let fix = fields.count < 3 ? "keep the two tabs" : #"keep two tabs, and write a tab inside a value as \t"#
            throw Problem(line: number, "expected id, name and title separated by tabs, found \(fields.count) field\(fields.count == 1 ? "" : "s")\(whose); \(fix)")
        }
        guard let id else {
            throw Problem(line: number, "id \(escape(idText)) is not a positive whole number; keep each line's id as it was")
        }
        guard let entry = originals[id] else {
            throw Problem(line: number, "id \(id) is not one of the photos being edited; keep each line's id as it was")
        }
        let filename = try unescape(fields[1], line: number, named: "photo \(id)'s file name")
        let title = try unescape(fields[2], line: number, named: "photo \(id)'s title")
        let isRenamed = filename != entry.filename
        if isRenamed, let reason = nameProblem(filename, of: entry) {
            throw Problem(line: number, reason)
        }
        return Row(line: number, id: id, filename: filename, title: title.isEmpty ? nil : title, isRenamed: isRenamed)
    }

    /// `field` unescaped, with a problem's reason prefixed by `name`.
    private static func unescape(_ field: Substring, line: Int, named name: String) throws(Problem) -> String {
        do {
            return try unescape(field)
        } catch {
            throw Problem(line: line, "\(name) \(error.reason)")
        }
    }

    /// Why `filename` cannot be the new name of `entry`, or nil when it can.
    private static func nameProblem(_ filename: String, of entry: Entry) -> String? {
        let name = "photo \(entry.id)'s file name"
        if filename.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return "photo \(entry.id) needs a file name; type one, or put back \(escape(entry.filename))"
        }
        if filename == "." || filename == ".." { return "\(name) cannot be \"\(filename)\"; choose another name" }
        if filename.unicodeScalars.contains("/") { return "\(name) cannot contain /; use another character, such as -" }
        if filename.unicodeScalars.contains("\0") { return #"\#(name) cannot contain a NUL character (\x00); remove it"# }
        let length = filename.unicodeScalars.count
        if length > 255 { return "\(name) is \(length) characters long; shorten it to 255 or fewer" }
        return nil
    }

    /// Throws when two photos would share a name after the edit, ignoring case and Unicode normalisation,
    /// and at least one of them was renamed; names that were equal already are left to the user.
    private static func checkNamesDiffer(_ rows: [Row]) throws(Problem) {
        var firstByName: [String: Row] = [:]
        for row in rows {
            // String's == already ignores normalisation; NFC keeps the key the same were it ever compared as bytes.
            let key = row.filename.precomposedStringWithCanonicalMapping.lowercased()
            guard let earlier = firstByName[key] else {
                firstByName[key] = row
                continue
            }
            switch (earlier.isRenamed, row.isRenamed) {
            case (false, false): continue
            case (true, true):
                throw Problem(line: row.line, "photo \(row.id)'s new name \(escape(row.filename)) is also line \(earlier.line)'s new name (photo \(earlier.id)); names must differ")
            case (false, true):
                throw Problem(line: row.line, "photo \(row.id)'s new name \(escape(row.filename)) is already the name of photo \(earlier.id) (line \(earlier.line)); names must differ")
            case (true, false):
                throw Problem(line: earlier.line, "photo \(earlier.id)'s new name \(escape(earlier.filename)) is already the name of photo \(row.id) (line \(row.line)); names must differ")
            }
        }
    }

    /// What `row` asks of `entry`, or nil when it leaves both fields as they were.
    private static func change(from entry: Entry, to row: Row) -> Change? {
        // An empty title and no title are the same in the file, so neither is a change from the other.
        let oldTitle = entry.title.flatMap { $0.isEmpty ? nil : $0 }
        let change = Change(id: entry.id, filename: row.isRenamed ? row.filename : nil, title: row.title == oldTitle ? nil : .some(row.title))
        return change.filename == nil && change.title == nil ? nil : change
    }

    /// The value of a hex digit, either case.
    private static func hexDigit(_ scalar: Unicode.Scalar) -> UInt8? {
        switch scalar {
        case "0"..."9": UInt8(scalar.value - 48)
        case "a"..."f": UInt8(scalar.value - 87)
        case "A"..."F": UInt8(scalar.value - 55)
        default: nil
        }
    }
}
