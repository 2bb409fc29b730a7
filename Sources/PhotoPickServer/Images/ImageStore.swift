import Crypto
import Foundation
import NIOPosix

/// An encoded image on disk, with what the file response needs to describe it.
struct StoredImage: Sendable {
    let path: String
    let length: Int64
    /// A strong validator derived from the content.
    let etag: String
    /// RFC 9530 `Repr-Digest` value.
    let reprDigest: String

    init(path: String, length: Int64, sha256: [UInt8]) {
        self.path = path
        self.length = length
        etag = "\"" + Array(sha256.prefix(16)).hexString + "\""
        reprDigest = "sha-256=:" + Data(sha256).base64EncodedString() + ":"
    }
}

/// Encodes each image lazily, on first request, and keeps it under the data directory.
///
/// The same image is never encoded twice: concurrent requests share one encode, and later
/// ones (across restarts too) read the file the first one wrote. Once an image is ready it is
/// kept in memory, so repeated requests for it touch neither the library nor the disk.
actor ImageStore {
    private struct Key: Hashable {
        let photoID: Int64
        let variant: ImageVariant
    }

    private let directory: URL
    private let library: LibraryStore
    private let shared: SharedEncodings?
    /// Photos whose original is stored damaged (`ServerConfiguration.damagedOriginals`).
    private let damaged: Set<Int64>
    private var inFlight: [Key: Task<StoredImage, any Error>] = [:]
    /// Images whose file is written and recorded, until their photo's images are removed.
    private var ready: [Key: StoredImage] = [:]
    /// Images encoded since start; each is encoded at most once.
    private(set) var encodeCount = 0
    /// Encoding is CPU-bound and a 12 MP original takes seconds: it runs on threads of its own, one per
    /// core. Not on Dispatch's global queues (as an `OperationQueue` would): on Linux Swift's cooperative
    /// pool runs on those same threads, so encodes holding them starved every task in the process, the
    /// browser's key handling included, for as long as the originals took.
    private static let encoders: NIOThreadPool = {
        let pool = NIOThreadPool(numberOfThreads: max(1, ProcessInfo.processInfo.activeProcessorCount))
        pool.start()
        return pool
    }()

    init(directory: URL, library: LibraryStore, shared: SharedEncodings? = nil, damaged: Set<Int64> = []) throws {
        self.directory = directory
        self.library = library
        self.shared = shared
        self.damaged = damaged
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func image(for photo: PhotoRecord, variant: ImageVariant) async throws -> StoredImage {
        let key = Key(photoID: photo.id, variant: variant)
        if let image = ready[key] { return image }
        if let running = inFlight[key] { return try await running.value }
        let task = Task { try await self.loadOrEncode(photo, variant: variant) }
        inFlight[key] = task
        defer { if inFlight[key] == task { inFlight[key] = nil } }
        let image = try await task.value
        // Unless the photo's images were removed meanwhile: removal also forgets the task.
        if inFlight[key] == task { ready[key] = image }
        return image
    }

    /// Removes every encoded variant of a deleted photo, and forgets them.
    func removeImages(ofPhoto id: Int64) {
        for variant in ImageVariant.allCases {
            let key = Key(photoID: id, variant: variant)
            ready[key] = nil
            inFlight[key] = nil
            try? FileManager.default.removeItem(at: fileURL(photoID: id, variant: variant))
        }
    }

    private func loadOrEncode(_ photo: PhotoRecord, variant: ImageVariant) async throws -> StoredImage {
        let url = fileURL(photoID: photo.id, variant: variant)
        if let facts = try await library.imageFile(photoID: photo.id, variant: variant.rawValue),
           let size = try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int64, size == facts.length {
            return StoredImage(path: url.path, length: facts.length, sha256: facts.sha256)
        }
        encodeCount += 1
        let damages = variant == .original && damaged.contains(photo.id)
        let facts = try await Self.encodeOffPool(photo, variant: variant, to: url, shared: shared, damaged: damages)
        guard try await library.recordImageFile(photoID: photo.id, variant: variant.rawValue, facts: facts) else {
            // Deleted while it was being encoded: leave nothing behind.
            try? FileManager.default.removeItem(at: url)
            throw APIFailure.noSuch("photo")
        }
        return StoredImage(path: url.path, length: facts.length, sha256: facts.sha256)
    }

    /// Encodes, hashes and writes the file (to a temporary name, renamed into place) on an encoder thread.
    private static func encodeOffPool(
        _ photo: PhotoRecord, variant: ImageVariant, to url: URL, shared: SharedEncodings?, damaged: Bool
    ) async throws -> LibraryStore.ImageFileFacts {
        try await encoders.runIfActive {
            var bytes = try shared.map { shared in
                try shared.image(photo, variant) { try encode(photo, variant: variant, render: shared.pixels) }
            } ?? encode(photo, variant: variant)
            if damaged { bytes = Self.damage(bytes, seed: UInt64(photo.id)) }
            try Data(bytes).write(to: url, options: .atomic)
            return LibraryStore.ImageFileFacts(length: Int64(bytes.count), sha256: Array(SHA256.hash(data: bytes)))
        }
    }

    /// Encodes `photo` in `variant`. With `render`, the scene's pixels come from it (a cache of them,
    /// shared by the variants and kinds of one scene); without, JPEGs are rendered row by row into the
    /// encoder, never holding the picture.
    static func encode(_ photo: PhotoRecord, variant: ImageVariant, render: SceneRender? = nil) throws -> [UInt8] {
        if variant == .original { return try OriginalEncoder.encode(photo, render: render ?? JPEGEncoder.render) }
        let scene = SceneDesign(photo)
        let size = variant == .originalJPEG ? (width: photo.width, height: photo.height) : variant.dimensions(width: photo.width, height: photo.height)
        let quality = variant == .originalJPEG ? 92 : 85
        guard let render else { return try JPEGEncoder.encode(scene, width: size.width, height: size.height, quality: quality) }
        return try JPEGEncoder.encode(pixels: render(scene, size.width, size.height), width: size.width, height: size.height, quality: quality)
    }

    /// A file of the same length and magic number whose every byte after the first 16 is random: no
    /// reader of its format can take it, and its digest is its own.
    static func damage(_ bytes: [UInt8], seed: UInt64) -> [UInt8] {
        var random = SeededRandom(seed: seed)
        return bytes.indices.map { $0 < 16 ? bytes[$0] : UInt8.random(in: 0...255, using: &random) }
    }

    private func fileURL(photoID: Int64, variant: ImageVariant) -> URL {
        directory.appending(path: "\(photoID)-\(variant.rawValue).jpg")
    }
}
