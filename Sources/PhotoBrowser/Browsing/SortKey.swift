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

    /// Whether the photo at `a` sorts before the one at `b`; ties go by id, so every order is total.
    func precedes(_ a: LibraryPhoto, _ b: LibraryPhoto) -> Bool {
        switch self {
        case .captureTime:
            let first = a.takenAtSeconds, second = b.takenAtSeconds
            if first.isNaN != second.isNaN { return second.isNaN }
            if !first.isNaN, first != second { return first < second }
        case .filename:
            let order = NaturalOrder.compare(a.filename, b.filename)
            if order != 0 { return order < 0 }
        case .size:
            if a.bytes != b.bytes { return a.bytes > b.bytes }
        }
        return a.id < b.id
    }
}

/// Compares names the way people count: runs of digits by value, letters without regard to case.
enum NaturalOrder {
    /// Negative, zero or positive, like `strcmp`.
    static func compare(_ a: String, _ b: String) -> Int {
        var first = a.utf8.makeIterator(), second = b.utf8.makeIterator()
        var x = first.next(), y = second.next()
        while let left = x, let right = y {
            if isDigit(left), isDigit(right) {
                let (leftNumber, nextLeft) = number(startingWith: left, &first)
                let (rightNumber, nextRight) = number(startingWith: right, &second)
                if leftNumber != rightNumber { return compareDigits(leftNumber, rightNumber) }
                x = nextLeft
                y = nextRight
                continue
            }
            let l = lower(left), r = lower(right)
            if l != r { return Int(l) - Int(r) }
            x = first.next()
            y = second.next()
        }
        if x == nil, y == nil { return 0 }
        return x == nil ? -1 : 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 < 10 }
    private static func lower(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

    /// The digit run starting with `digit`, without leading zeros, and the byte after it.
    private static func number(startingWith digit: UInt8, _ iterator: inout String.UTF8View.Iterator) -> ([UInt8], UInt8?) {
        var digits: [UInt8] = digit == 0x30 ? [] : [digit]
        var next = iterator.next()
        while let byte = next, isDigit(byte) {
            if !(digits.isEmpty && byte == 0x30) { digits.append(byte) }
            next = iterator.next()
        }
        return (digits, next)
    }

    private static func compareDigits(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a.count != b.count { return a.count - b.count }
        for (x, y) in zip(a, b) where x != y { return Int(x) - Int(y) }
        return 0
    }
}
