import Foundation
import PhotoPickKit

/// Where each key of a TOML text is written. TOMLKit reports lines only for syntax errors, and a
/// setting photopick refuses must name its line too, so this reads the keys' lines off the text.
/// It reads keys only; the values are TOMLKit's.
struct KeyLineIndex {
    private var lines: [[String]: Int] = [:]
    private var keysByLine: [Int: [String]] = [:]
    /// The text of each line, first line first.
    private let written: [Substring]

    init(_ text: String) {
        var table: [String] = []
        var openString: Substring?
        // "\r\n" is one Character in Swift, so a file written on Windows is split on its scalars.
        written = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { Substring(String($0)) }
        for (offset, raw) in written.enumerated() {
            let number = offset + 1
            if let delimiter = openString {
                if raw.components(separatedBy: delimiter).count % 2 == 0 { openString = nil }
                continue
            }
            var scanner = Scanner(raw)
            scanner.skipSpaces()
            if scanner.take("[") {
                // A header is `[a.b]` or `[[a.b]]` and nothing after but a comment; a line of an array is not.
                let doubled = scanner.take("[")
                if let path = scanner.keyPath(), scanner.take("]"), !doubled || scanner.take("]"), scanner.endsLine {
                    table = path
                    if self.lines[path] == nil { self.lines[path] = number }
                }
                continue
            }
            guard let key = scanner.keyPath(), scanner.take("=") else { continue }
            let path = table + key
            if self.lines[path] == nil { self.lines[path] = number }
            keysByLine[number] = path
            // A multi-line string opens right after the `=` and does not close on the same line.
            scanner.skipSpaces()
            for delimiter in [#"""""#, "'''"] where scanner.rest.hasPrefix(delimiter) && !scanner.rest.dropFirst(3).contains(delimiter) {
                openString = Substring(delimiter)
            }
        }
    }

    /// The line a key is written on; for a key inside an inline table, the line of the table's key.
    func line(of path: [String]) -> Int {
        var prefix = path
        while !prefix.isEmpty {
            if let line = lines[prefix] { return line }
            prefix.removeLast()
        }
        return 1
    }

    /// The key written on a line, if any.
    func key(onLine line: Int) -> [String]? { keysByLine[line] }

    /// The text of a 1-based line; empty past the end.
    func text(ofLine line: Int) -> Substring { written.indices.contains(line - 1) ? written[line - 1] : "" }

    /// A key path as a person writes it, quoting the parts that are not bare keys: `keys."select all"`.
    static func dotted(_ path: [String]) -> String {
        path.map { part in
            // A TOML basic string escapes like a JSON one.
            !part.isEmpty && part.unicodeScalars.allSatisfy(Scanner.isBare) ? part : JSONValue.string(part).description
        }.joined(separator: ".")
    }

    /// Reads bare, quoted and dotted keys from the start of a line.
    private struct Scanner {
        private(set) var rest: Substring

        init(_ line: Substring) { rest = line }

        static func isBare(_ c: Unicode.Scalar) -> Bool {
            switch c {
            case "A"..."Z", "a"..."z", "0"..."9", "_", "-": true
            default: false
            }
        }

        mutating func skipSpaces() { rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\r" } }

        /// Whether only blanks and a comment are left.
        var endsLine: Bool {
            let left = rest.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            return left.isEmpty || left.hasPrefix("#")
        }

        mutating func take(_ text: String) -> Bool {
            skipSpaces()
            guard rest.hasPrefix(text) else { return false }
            rest = rest.dropFirst(text.count)
            return true
        }

        mutating func keyPath() -> [String]? {
            var path: [String] = []
            repeat {
                guard let part = keyPart() else { return nil }
                path.append(part)
            } while take(".")
            return path
        }

        private mutating func keyPart() -> String? {
            skipSpaces()
            guard let first = rest.first else { return nil }
            if first == "\"" || first == "'" {
                var part = "", escaped = false
                rest = rest.dropFirst()
                while let c = rest.first {
                    rest = rest.dropFirst()
                    if first == "\"" && !escaped && c == "\\" { escaped = true; continue }
                    if c == first && !escaped { return part }
                    part.append(c)
                    escaped = false
                }
                return nil
            }
            let bare = rest.unicodeScalars.prefix { Self.isBare($0) }
            guard !bare.isEmpty else { return nil }
            rest = rest.dropFirst(String(String.UnicodeScalarView(bare)).count)
            return String(String.UnicodeScalarView(bare))
        }
    }
}
