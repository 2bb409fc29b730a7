/// The folded searchable text of every photo (filename, title, camera, lens) in one contiguous buffer,
/// so a filter scans memory instead of comparing strings.
struct SearchIndex: Sendable {
    private var text: [UInt8] = []
    /// Where each photo's text ends; it starts where the previous one ends.
    private var ends: [UInt32] = []

    /// Fields are joined with a byte no folded text contains, so no match spans two of them.
    private static let separator: UInt8 = 0x1F

    mutating func append(_ fields: [String?]) {
        text.append(contentsOf: Self.folded(fields))
        ends.append(UInt32(text.count))
    }

    /// Replaces one photo's text; the rest of the buffer moves only when the length changes.
    mutating func replace(_ index: Int, with fields: [String?]) {
        let start = index == 0 ? 0 : Int(ends[index - 1])
        let end = Int(ends[index])
        let new = Self.folded(fields)
        guard !text[start..<end].elementsEqual(new) else { return }
        text.replaceSubrange(start..<end, with: new)
        let shift = Int64(new.count) - Int64(end - start)
        guard shift != 0 else { return }
        for later in index..<ends.count { ends[later] = UInt32(Int64(ends[later]) + shift) }
    }

    private static func folded(_ fields: [String?]) -> [UInt8] {
        var bytes: [UInt8] = []
        for field in fields {
            guard let field, !field.isEmpty else { continue }
            bytes.append(contentsOf: SearchFolding.fold(field))
            bytes.append(separator)
        }
        return bytes
    }

    /// Whether every word of `query` occurs in the text of the photo at `index`.
    func matches(_ index: Int, _ query: SearchQuery) -> Bool {
        let start = index == 0 ? 0 : Int(ends[index - 1])
        let end = Int(ends[index])
        return text.withUnsafeBufferPointer { buffer in
            let haystack = UnsafeBufferPointer(rebasing: buffer[start..<end])
            return query.words.allSatisfy { Self.contains(haystack, $0) }
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        let lastStart = haystack.count - needle.count
        var position = 0
        while position <= lastStart {
            if haystack[position] == first {
                var offset = 1
                while offset < needle.count, haystack[position + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            position += 1
        }
        return false
    }
}

/// A filter text, folded and split into words once per change rather than once per photo.
struct SearchQuery: Sendable, Equatable {
    let words: [[UInt8]]

    init(_ text: String) {
        words = text.split(whereSeparator: \.isWhitespace).map { SearchFolding.fold(String($0)) }
    }

    init(words: [[UInt8]]) {
        self.words = words
    }

    var isEmpty: Bool { words.isEmpty }
}
