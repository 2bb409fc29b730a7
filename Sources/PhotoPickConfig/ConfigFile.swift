import Foundation
import TOMLKit

/// A config file read by TOMLKit and flattened into settings with full key paths, each with the line
/// it is written on, in file order.
struct ConfigFile {
    /// A value on the right of `=`, reduced to what settings can hold.
    enum Value: Equatable {
        case string(String), integer(Int), float(Double), boolean(Bool), array([Value]), date, emptyTable

        /// How the type reads in a message: "expected a string, found \(value.typeName)".
        var typeName: String {
            switch self {
            case .string: "a string"
            case .integer: "an integer"
            case .float: "a number"
            case .boolean: "true or false"
            case .array: "an array"
            case .date: "a date or time"
            case .emptyTable: "a table"
            }
        }
    }

    /// One setting; tables, inline or not, are folded into `path`.
    struct Entry: Equatable {
        /// `["keys", "down"]` for `down = …` under `[keys]` or for `keys = { down = … }`.
        let path: [String]
        let value: Value
        /// The 1-based line the key is written on.
        let line: Int

        /// The path as a person writes it: `keys.down`.
        var dottedKey: String { KeyLineIndex.dotted(path) }
    }

    /// Why the text is not TOML.
    struct SyntaxError: Error {
        let line: Int
        /// The key written on that line, when there is one.
        let key: String?
        let reason: String
        /// Whether the line may hold a key's secret, which the reason might quote.
        let mayQuoteSecret: Bool
    }

    let entries: [Entry]

    init(parsing text: String) throws(SyntaxError) {
        let index = KeyLineIndex(text)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            let line = error.source.begin.line
            let key = index.key(onLine: line)
            let mayQuoteSecret = key?.last == "api_key" || index.text(ofLine: line).contains("api_key")
            throw SyntaxError(line: line, key: key.map(KeyLineIndex.dotted), reason: Self.reason(error.description), mayQuoteSecret: mayQuoteSecret)
        } catch {
            throw SyntaxError(line: 1, key: nil, reason: "\(error)", mayQuoteSecret: true)
        }
        var entries: [Entry] = []
        Self.flatten(table, under: [], index: index, into: &entries)
        // toml++ keeps keys sorted; settings are applied, and warned about, in the order they are written.
        self.entries = entries.enumerated().sorted { ($0.element.line, $0.offset) < ($1.element.line, $1.offset) }.map(\.element)
    }

    private static func flatten(_ table: TOMLTable, under path: [String], index: KeyLineIndex, into entries: inout [Entry]) {
        for (key, value) in zip(table.keys, table.values) {
            let path = path + [key]
            if value.type == .table, let child = value.table {
                // An empty table says nothing, but `concurrency = {}` must still be refused as a table.
                if child.isEmpty { entries.append(Entry(path: path, value: .emptyTable, line: index.line(of: path))) }
                flatten(child, under: path, index: index, into: &entries)
            } else {
                entries.append(Entry(path: path, value: Self.value(value), line: index.line(of: path)))
            }
        }
    }

    private static func value(_ value: any TOMLValueConvertible) -> Value {
        switch value.type {
        case .string: .string(value.string ?? "")
        case .int: .integer(value.int ?? 0)
        case .double: .float(value.double ?? 0)
        case .bool: .boolean(value.bool ?? false)
        case .array: .array(value.array.map { $0.map(Self.value) } ?? [])
        // An array of tables, say: no setting takes one, and its type is all the error needs.
        case .table: .array([])
        case .date, .time, .dateTime: .date
        }
    }

    /// toml++'s message, lower-case first and without a trailing period, like the config's own.
    private static func reason(_ message: String) -> String {
        var text = message.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasSuffix(".") { text.removeLast() }
        return "not valid TOML: " + text.prefix(1).lowercased() + text.dropFirst()
    }
}
