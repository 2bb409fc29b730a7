import Foundation
import NIOConcurrencyHelpers

/// Fetched renditions on disk under `$XDG_CACHE_HOME/photopick/previews`, one file per library, photo,
/// variant and ETag, bounded in bytes with least-recently-used eviction across all libraries. Use is
/// recorded in the files' modification times, so the order survives restarts.
public final class PreviewDiskCache: Sendable {
    /// The default bound: 500 MiB of files across all libraries.
    public static let defaultByteLimit = 500 << 20

    /// A cached file's identity: a newer ETag for the same photo and variant replaces the older file.
    public struct Key: Hashable, Sendable {
        /// A digest of the library's name: photo ids are only unique within one library.
        public var library: String
        /// The photo's id.
        public var photoID: Int
        /// The rendition's name, such as `web`.
        public var variant: String
    }

    /// One cached file.
    public struct Entry: Sendable, Equatable {
        /// A digest of the ETag, or `none` when the server sent none.
        public var tag: String
        /// The file's size in bytes.
        public var bytes: Int
    }

    /// The folder the files live in.
    public let directory: URL
    /// The most bytes the files of every library may take together.
    public let byteLimit: Int
    /// The library this instance reads and writes; the bound covers every library's files.
    public let library: String
    private let index: NIOLockedValueBox<LRUCache<Key, Entry>>

    /// Opens (creating it, mode 0700) the cache in `directory` for `library` (any name that tells
    /// libraries apart), indexing what earlier runs left, oldest use first, and removing files over the
    /// limit and unfinished writes.
    public init(
        library: String, directory: URL, byteLimit: Int = PreviewDiskCache.defaultByteLimit
    ) throws {
        self.directory = directory
        self.byteLimit = byteLimit
        self.library = Self.digest(library)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var found: [(key: Key, entry: Entry, used: Date)] = []
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for name in names {
            let path = directory.appending(path: name).path
            guard let (key, tag) = Self.parse(name) else {
                if name.contains(".tmp-") { unlink(path) }
                continue
            }
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            let used = Date(timeIntervalSince1970: TimeInterval(status.st_mtim.tv_sec) + TimeInterval(status.st_mtim.tv_nsec) / 1e9)
            found.append((key, Entry(tag: tag, bytes: Int(status.st_size)), used))
        }
        var cache = LRUCache<Key, Entry>(costLimit: byteLimit)
        for file in found.sorted(by: { $0.used < $1.used }) {
            if let replaced = cache.peek(file.key) { unlink(Self.path(directory, file.key, replaced.tag)) }
            for (key, entry) in cache.insert(file.entry, for: file.key, cost: file.entry.bytes) {
                unlink(Self.path(directory, key, entry.tag))
            }
        }
        index = NIOLockedValueBox(cache)
    }

    /// The tag an ETag is filed under.
    public static func tag(forETag etag: String?) -> String {
        digest(etag)
    }

    /// FNV-1a, 64 bits, in hex: a stable, file-name-safe digest of any text; `none` for none.
    package static func digest(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "none" }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The cached bytes of a photo's variant, when there are any and, given an ETag, only when they
    /// are that version. A hit counts as use.
    public func bytes(photoID: Int, variant: String, etag: String?? = .none) -> (bytes: [UInt8], entry: Entry)? {
        let key = Key(library: library, photoID: photoID, variant: variant)
        return index.withLockedValue { index -> (bytes: [UInt8], entry: Entry)? in
            guard let entry = index.peek(key) else { return nil }
            if case .some(let etag) = etag, entry.tag != Self.tag(forETag: etag) { return nil }
            let path = Self.path(directory, key, entry.tag)
            guard let bytes = FileBytes.read(path), bytes.count == entry.bytes else {
                index.removeValue(for: key)
                unlink(path)
                return nil
            }
            _ = index.value(for: key)
            utimes(path, nil)
            return (bytes, entry)
        }
    }

    /// Files a fetched variant: written beside its final name, then renamed over it, so a crash never
    /// leaves half a file under a cached name. An older ETag's file for the same photo and variant is
    /// removed, and the least recently used files go until the cache fits its limit.
    public func store(photoID: Int, variant: String, etag: String?, bytes: [UInt8]) throws {
        let key = Key(library: library, photoID: photoID, variant: variant)
        let entry = Entry(tag: Self.tag(forETag: etag), bytes: bytes.count)
        guard bytes.count <= byteLimit else { return }
        let path = Self.path(directory, key, entry.tag)
        // A name of its own, so two writers of the same file never share one. Not synced: a file cut short
        // by a crash fails to decode, and the loader then drops it and fetches it again.
        let temporary = "\(path).tmp-\(getpid())-\(UUID().uuidString)"
        try FileBytes.write(bytes, toNew: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "cannot file a preview in \(directory.path): \(reason)"])
        }
        index.withLockedValue { index in
            if let replaced = index.peek(key), replaced.tag != entry.tag { unlink(Self.path(directory, key, replaced.tag)) }
            for (evictedKey, evicted) in index.insert(entry, for: key, cost: entry.bytes) {
                unlink(Self.path(directory, evictedKey, evicted.tag))
            }
        }
    }

    /// Forgets a photo's variant and removes its file, as when it turned out to be damaged.
    public func remove(photoID: Int, variant: String) {
        let key = Key(library: library, photoID: photoID, variant: variant)
        index.withLockedValue { index in
            if let entry = index.removeValue(for: key) { unlink(Self.path(directory, key, entry.tag)) }
        }
    }

    /// Bytes and files held.
    public var usage: (bytes: Int, count: Int) {
        index.withLockedValue { ($0.totalCost, $0.count) }
    }

    private static func path(_ directory: URL, _ key: Key, _ tag: String) -> String {
        directory.appending(path: "\(key.library)-\(key.photoID)-\(key.variant)-\(tag).jpg").path
    }

    /// `<library>-<id>-<variant>-<tag>.jpg`, or nil for anything else.
    private static func parse(_ name: String) -> (Key, String)? {
        guard name.hasSuffix(".jpg") else { return nil }
        let parts = name.dropLast(4).split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 4, !parts[0].isEmpty, let id = Int(parts[1]), !parts[2].isEmpty, !parts[3].isEmpty else { return nil }
        return (Key(library: String(parts[0]), photoID: id, variant: String(parts[2])), String(parts[3]))
    }
}
