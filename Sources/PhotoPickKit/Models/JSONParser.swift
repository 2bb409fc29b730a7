/// A small JSON parser from UTF-8 bytes to `JSONValue`.
///
/// A library walk decodes a hundred photos per page; Foundation's `JSONDecoder` spends several times
/// longer on that than the network does, so the hot path parses here and maps values by hand.
struct JSONParser {
    /// Where and why the text is not JSON.
    struct Failure: Error {
        let offset: Int
        let reason: String
    }

    private let bytes: UnsafeRawBufferPointer
    private var index = 0
    private var depth = 0
    private static let maximumDepth = 512

    /// Parses one complete JSON text.
    static func parse(_ bytes: UnsafeRawBufferPointer) throws(Failure) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        let value = try parser.value()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
        return value
    }

    /// A top-level object whose `listKey` member is an array of objects, such as a page's `data`:
    /// those objects come back as member lists (no hashing), the other members as usual.
    static func parseList(
        _ bytes: UnsafeRawBufferPointer, at listKey: String
    ) throws(Failure) -> (list: [JSONMembers]?, rest: [String: JSONValue]) {
        var parser = JSONParser(bytes: bytes)
        var list: [JSONMembers]?
        var rest: [String: JSONValue] = [:]
        parser.skipWhitespace()
        try parser.expect(UInt8(ascii: "{"))
        parser.skipWhitespace()
        if !parser.peek(UInt8(ascii: "}")) {
            repeat {
                parser.skipWhitespace()
                guard parser.peek(UInt8(ascii: "\"")) else { throw parser.failure("expected a member name") }
                let key = try parser.string()
                parser.skipWhitespace()
                try parser.expect(UInt8(ascii: ":"))
                parser.skipWhitespace()
                if key == listKey, parser.peek(UInt8(ascii: "[")) {
                    list = try parser.listOfMemberLists()
                } else {
                    rest[key] = try parser.value()
                }
                parser.skipWhitespace()
            } while parser.consume(UInt8(ascii: ","))
        }
        try parser.expect(UInt8(ascii: "}"))
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.failure("unexpected text after the value") }
        return (list, rest)
    }

    private mutating func listOfMemberLists() throws(Failure) -> [JSONMembers] {
        index += 1
        var list: [JSONMembers] = []
        skipWhitespace()
        if consume(UInt8(ascii: "]")) { return list }
        repeat {
            skipWhitespace()
            guard peek(UInt8(ascii: "{")) else { throw failure("expected an object") }
            list.append(try memberList())
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "]"))
        return list
    }

    private mutating func memberList() throws(Failure) -> JSONMembers {
        index += 1
        var members = JSONMembers()
        skipWhitespace()
        if consume(UInt8(ascii: "}")) { return members }
        repeat {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            members.append(key, try value())
            skipWhitespace()
        } while consume(UInt8(ascii: ","))
        try expect(UInt8(ascii: "}"))
        return members
    }

    private mutating func consume(_ byte: UInt8) -> Bool {
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    private init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    private mutating func value() throws(Failure) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw failure("unexpected end of text") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try descend()
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if peek(UInt8(ascii: "}")) { index += 1; depth -= 1; return .object(members) }
        while true {
            skipWhitespace()
            guard peek(UInt8(ascii: "\"")) else { throw failure("expected a member name") }
            let key = try string()
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            members[key] = try value()
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "}"))
            depth -= 1
            return .object(members)
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try descend()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek(UInt8(ascii: "]")) { index += 1; depth -= 1; return .array(elements) }
        while true {
            elements.append(try value())
            skipWhitespace()
            if peek(UInt8(ascii: ",")) { index += 1; continue }
            try expect(UInt8(ascii: "]"))
            depth -= 1
            return .array(elements)
        }
    }

    private mutating func string() throws(Failure) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                defer { index += 1 }
                return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") { return try escapedString(from: start) }
            guard byte >= 0x20 else { throw failure("a control character inside a string") }
            index += 1
        }
        throw failure("unterminated string")
    }

    /// The slow path, for strings with escapes.
    private mutating func escapedString(from start: Int) throws(Failure) -> String {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = Array(bytes[start..<index])
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            switch byte {
            case UInt8(ascii: "\""):
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    flush()
                    scalars.append(try unicodeEscape())
                default: throw failure("an unknown escape in a string")
                }
            default:
                guard byte >= 0x20 else { throw failure("a control character inside a string") }
                utf8.append(byte)
            }
        }
        throw failure("unterminated string")
    }

    /// `\uXXXX`, joining surrogate pairs; a lone surrogate becomes U+FFFD.
    private mutating func unicodeEscape() throws(Failure) -> Unicode.Scalar {
        let high = try hexQuad()
        if (0xD800..<0xDC00).contains(high), index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
           bytes[index + 1] == UInt8(ascii: "u") {
            index += 2
            let low = try hexQuad()
            if (0xDC00..<0xE000).contains(low) {
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)) ?? "\u{FFFD}"
            }
        }
        return Unicode.Scalar(high) ?? "\u{FFFD}"
    }

    private mutating func hexQuad() throws(Failure) -> UInt32 {
        guard index + 4 <= bytes.count else { throw failure("a short \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw failure("a bad \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = index
        var isInteger = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): index += 1
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"), UInt8(ascii: "-"):
                isInteger = false
                index += 1
            default:
                return try numberValue(start, isInteger: isInteger)
            }
        }
        return try numberValue(start, isInteger: isInteger)
    }

    private func numberValue(_ start: Int, isInteger: Bool) throws(Failure) -> JSONValue {
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let value = Int64(text) { return .integer(value) }
        guard let value = Double(text), value.isFinite, text.last?.isNumber == true else {
            throw Failure(offset: start, reason: "not a value")
        }
        return .number(value)
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count,
              (0..<count).allSatisfy({ bytes[index + $0] == word.utf8Start[$0] })
        else { throw failure("not a value") }
        index += count
    }

    private mutating func descend() throws(Failure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested too deeply") }
    }

    private mutating func expect(_ byte: UInt8) throws(Failure) {
        guard peek(byte) else { throw failure("expected '\(Character(Unicode.Scalar(byte)))'") }
        index += 1
    }

    private func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    private func failure(_ reason: String) -> Failure {
        Failure(offset: index, reason: reason)
    }
}
