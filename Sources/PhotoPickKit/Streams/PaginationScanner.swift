import Foundation
import NIOCore

/// Reads a page's `pagination` member without parsing the whole page: the next request can go out
/// before the page's items are decoded. The page's full decode confirms it afterwards.
/// `package` so photopick-bench's `decode` can count it as part of the fast path.
package enum PaginationScanner {
    private static let key = Array(#""pagination""#.utf8)

    /// The pagination of a page body, found by its last top-level-looking key; nil when not found cheaply.
    /// `package` for photopick-bench's `decode`.
    package static func pagination(in body: ByteBuffer) -> Pagination? {
        body.withUnsafeReadableBytes { bytes -> Pagination? in
            guard let start = lastKey(in: bytes), let open = firstIndex(of: UInt8(ascii: "{"), in: bytes, from: start),
                  let close = firstIndex(of: UInt8(ascii: "}"), in: bytes, from: open)
            else { return nil }
            let object = Data(bytes[open...close])
            return try? JSONDecoder().decode(Pagination.self, from: object)
        }
    }

    private static func lastKey(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard bytes.count > key.count, let base = bytes.baseAddress else { return nil }
        var index = bytes.count - key.count
        while index > 0 {
            if bytes[index] == UInt8(ascii: "\""), bytes[index - 1] != UInt8(ascii: "\\"),
               key.withUnsafeBytes({ memcmp(base + index, $0.baseAddress!, key.count) }) == 0 {
                return index + key.count
            }
            index -= 1
        }
        return nil
    }

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var index = start
        while index < bytes.count {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }
}
