/// The orders photopick offers; the API has none, so sorting is done over what is loaded.
public enum SortKey: String, Sendable, CaseIterable, Codable {
    /// Oldest first; photos without a capture time come last.
    case captureTime
    /// Natural order, ignoring case: `IMG_2` before `IMG_10`.
    case filename
    /// Largest first.
    case size

    /// A short label for the header.
    var label: String {
        switch self {
        case .captureTime: "capture time"
        case .filename: "filename"
        case .size: "size, largest first"
        }
    }

    /// The next order in the cycle the sort key steps through.
    var next: SortKey {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// Compares names the way people count: runs of digits by value, letters without regard to case.
enum NaturalOrder {
    /// Negative, zero or positive, like `strcmp`.
    static func compare(_ a: String, _ b: String) -> Int {
        var a = a, b = b
        return a.withUTF8 { left in b.withUTF8 { compare(left, $0) } }
    }

    /// The same over UTF-8 bytes, as the library keeps names.
    static func compare(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        var i = 0, j = 0
        while i < a.count, j < b.count {
            let left = a[i], right = b[j]
            if isDigit(left), isDigit(right) {
                // Digit runs by value: leading zeros skipped, then the longer run is the larger number.
                var x = i, y = j
                while x < a.count, a[x] == 0x30 { x += 1 }
                while y < b.count, b[y] == 0x30 { y += 1 }
                var xEnd = x, yEnd = y
                while xEnd < a.count, isDigit(a[xEnd]) { xEnd += 1 }
                while yEnd < b.count, isDigit(b[yEnd]) { yEnd += 1 }
                if xEnd - x != yEnd - y { return (xEnd - x) - (yEnd - y) }
                for offset in 0..<(xEnd - x) where a[x + offset] != b[y + offset] { return Int(a[x + offset]) - Int(b[y + offset]) }
                i = xEnd
                j = yEnd
                continue
            }
            let l = lower(left), r = lower(right)
            if l != r { return Int(l) - Int(r) }
            i += 1
            j += 1
        }
        if i == a.count, j == b.count { return 0 }
        return i == a.count ? -1 : 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }
}
