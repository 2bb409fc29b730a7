import NIOConcurrencyHelpers

/// Encoded images shared by every server of one process that asks for it (`ServerConfiguration`'s
/// `sharesEncodedImages`): the test suite starts hundreds of demo servers of the same library, and
/// without it rendered the same photos again for each. A photo is its whole record, so an edited one
/// is encoded anew. Bounded: emptied when it would pass `limit` bytes.
final class SharedEncodings: Sendable {
    static let process = SharedEncodings(limit: 256 << 20)

    private struct Key: Hashable {
        let photo: PhotoRecord
        let variant: ImageVariant
    }

    private let limit: Int
    private let images = NIOLockedValueBox((byKey: [Key: [UInt8]](), bytes: 0))

    init(limit: Int) {
        self.limit = limit
    }

    /// The encoding of `photo` in `variant`: made by `encode` the first time, then the same bytes.
    func image(_ photo: PhotoRecord, _ variant: ImageVariant, encode: () throws -> [UInt8]) rethrows -> [UInt8] {
        let key = Key(photo: photo, variant: variant)
        if let bytes = images.withLockedValue({ $0.byKey[key] }) { return bytes }
        let bytes = try encode()
        images.withLockedValue { images in
            if images.bytes + bytes.count > limit { images = ([:], 0) }
            if images.byKey.updateValue(bytes, forKey: key) == nil { images.bytes += bytes.count }
        }
        return bytes
    }
}
