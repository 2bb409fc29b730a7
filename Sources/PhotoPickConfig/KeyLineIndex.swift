import Foundation

/// Where each key of a TOML text is written. TOMLKit reports lines only for syntax errors, and a
/// setting photopick refuses must name its line too, so this reads the keys' lines off the text.
/// It reads keys only; the values are TOMLKit's.
struct KeyLineIndex {
    private var lines: [[String]: Int] = [:]
    private var keysByLine: [Int: [String]] = [:]

    init(_ text: String) {
        var table: [String] = []
        var openString: Substring?
        for (offset, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = offset + 1
            if let delimiter = openString {
                if raw.components(separatedBy: delimiter).count % 2 == 0 { openString = nil }
                continue
            }
            var scanner = Scanner(Substring(raw))
            scanner.skipSpaces()
            if scanner.take("[") {
                _ = scanner.take("[")
                if let path = scanner.keyPath() {
                    table = path
                    if lines[path] == nil { lines[path] = number }
                }
                continue
            }
            guard let key = scanner.keyPath(), scanner.take("=") else { continue }
            let path = table + key
            if lines[path] == nil { lines[path] = number }
            keysByLine[number] = path
            for delimiter in [#"""""#, "'''"] where scanner.rest.components(separatedBy: delimiter).count == 2 {
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

    /// A key path as a person writes it, quoting the parts that are not bare keys: `keys."select all"`.
    static func dotted(_ path: [String]) -> String {
        path.map { part in
            if !part.isEmpty && part.unicodeScalars.allSatisfy(Scanner.isBare) { return part }
            return "\"" + part.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
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

        mutating func skipSpaces() { rest = rest.drop { $0 == " " || $0 == "\t" } }

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
