import NIOConcurrencyHelpers

/// Encoded images shared by every server of one process that asks for it (`ServerConfiguration`'s
/// `sharesEncodedImages`): the test suite starts hundreds of demo servers of the same library, and
/// without it rendered the same photos again for each. A photo is its whole record, so an edited one
/// is encoded anew.
///
/// Rendered scenes are shared too, by scene and size: one photo's `web` rendition and its original
/// are often the same pixels, and so are its kinds (the JPEG, HEIC and PNG of one scene) and the same
/// photo in libraries that differ in a title. Rendering is most of what an encode costs.
///
/// Bounded: the encoded files and the rendered scenes are each emptied when they would pass `limit`
/// bytes, so the two hold at most twice that.
final class SharedEncodings: Sendable {
    static let process = SharedEncodings(limit: 256 << 20)

    private struct Key: Hashable {
        let photo: PhotoRecord
        let variant: ImageVariant
    }

    private struct SceneKey: Hashable {
        let scene: SceneDesign
        let width: Int
        let height: Int
    }

    private let limit: Int
    private let render: SceneRender
    private let images = NIOLockedValueBox((byKey: [Key: [UInt8]](), bytes: 0))
    private let scenes = NIOLockedValueBox((byKey: [SceneKey: [UInt8]](), bytes: 0))

    /// `render` makes a scene's pixels when they are not held: `JPEGEncoder.render`, or a test's
    /// counting one.
    init(limit: Int, render: @escaping SceneRender = JPEGEncoder.render) {
        self.limit = limit
        self.render = render
    }

    /// The encoding of `photo` in `variant`: made by `encode` the first time, then the same bytes.
    func image(_ photo: PhotoRecord, _ variant: ImageVariant, encode: () throws -> [UInt8]) rethrows -> [UInt8] {
        try Self.shared(Key(photo: photo, variant: variant), in: images, limit: limit, make: encode)
    }

    /// The scene's packed RGB pixels at `width` × `height`: rendered the first time, then the same.
    /// A scene of more than a quarter of the bound is rendered whole each time, never kept (where a
    /// server of its own would stream a JPEG's rows into the encoder).
    func pixels(_ scene: SceneDesign, _ width: Int, _ height: Int) throws -> [UInt8] {
        guard width * height * 3 <= limit / 4 else { return try render(scene, width, height) }
        return try Self.shared(SceneKey(scene: scene, width: width, height: height), in: scenes, limit: limit) {
            try render(scene, width, height)
        }
    }

    private static func shared<Key: Hashable & Sendable>(
        _ key: Key, in store: NIOLockedValueBox<(byKey: [Key: [UInt8]], bytes: Int)>, limit: Int, make: () throws -> [UInt8]
    ) rethrows -> [UInt8] {
        if let bytes = store.withLockedValue({ $0.byKey[key] }) { return bytes }
        let bytes = try make()
        store.withLockedValue { store in
            if store.bytes + bytes.count > limit { store = ([:], 0) }
            if store.byKey.updateValue(bytes, forKey: key) == nil { store.bytes += bytes.count }
        }
        return bytes
    }
}
