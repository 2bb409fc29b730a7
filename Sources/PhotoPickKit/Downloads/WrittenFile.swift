import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file photopick wrote: what a download tells its caller just before the file appears under its
/// name, so a record of it can be made durable first. The record, with the bytes still hashing to
/// `sha256`, is what makes a file photopick's own; its name, length or dates never do.
public struct WrittenFile: Sendable, Hashable {
    /// The photo.
    public let photoID: Int
    /// The variant written, such as `original`, or `xmp` for a sidecar.
    public let variant: String
    /// Where it is (or is about to be).
    public let path: String
    /// Its length.
    public let length: Int64
    /// The SHA-256 of the bytes written.
    public let sha256: [UInt8]
    /// The file system and inode it was written as: a file put at the same name by anyone else is
    /// another inode, so a record made before a rename that never happened can claim nothing.
    public let device: UInt64
    /// See `device`.
    public let inode: UInt64
    /// The file's stamp when its bytes last hashed to `sha256`: while `stat` still says exactly this, the
    /// file is intact without being read again (`currentStateTrustingStamp()`).
    public var verified: FileStamp?

    /// A record of a file, as kept.
    public init(
        photoID: Int, variant: String, path: String, length: Int64, sha256: [UInt8], device: UInt64, inode: UInt64, verified: FileStamp? = nil
    ) {
        self.photoID = photoID
        self.variant = variant
        self.path = path
        self.length = length
        self.sha256 = sha256
        self.device = device
        self.inode = inode
        self.verified = verified
    }

    /// What is at `path` now, against the record.
    public enum State: Sendable, Equatable {
        /// The very file written, with exactly its bytes.
        case intact
        /// Something else: edited (whatever its length and dates), replaced, or no longer a regular file.
        case changed
        /// Nothing is there.
        case gone
    }

    /// Checks the file at `path` against the record, reading it whole (never through a link).
    public func currentState() -> State {
        hashedState().state
    }

    /// The state found by reading the file whole, with the file's stamp taken before the first byte was
    /// read (so a write while hashing moves it).
    func hashedState() -> (state: State, stamp: FileStamp?) {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else {
            var info = stat()
            return (lstat(path, &info) == 0 ? .changed : .gone, nil)
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int64(info.st_size) == length,
              UInt64(info.st_dev) == device, UInt64(info.st_ino) == inode
        else { return (.changed, nil) }
        var hasher = SHA256()
        guard Self.hash(file, into: &hasher) else { return (.changed, nil) }
        return Array(hasher.finalize()) == sha256 ? (.intact, FileStamp(info)) : (.changed, nil)
    }

    /// The record of the regular file at `path` (read whole, never through a link), as it will be once
    /// renamed to `finalPath`; nil when it cannot be read.
    public static func reading(_ path: String, as finalPath: String, photoID: Int, variant: String) -> WrittenFile? {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var info = stat(), hasher = SHA256()
        guard fstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, hash(file, into: &hasher) else { return nil }
        return describing(file, path: finalPath, photoID: photoID, variant: variant, length: Int64(info.st_size), sha256: Array(hasher.finalize()))
    }

    /// The record of the regular file open as `descriptor`, about to be named `path`.
    static func describing(
        _ descriptor: Int32, path: String, photoID: Int, variant: String, length: Int64, sha256: [UInt8]
    ) -> WrittenFile? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return WrittenFile(
            photoID: photoID, variant: variant, path: path, length: length, sha256: sha256,
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino)
        )
    }

    /// Feeds the rest of an open file to `hasher`; false if it cannot be read.
    static func hash(_ file: Int32, into hasher: inout SHA256) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { return false }
            if count == 0 { return true }
            buffer.withUnsafeBytes { hasher.update(bufferPointer: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
        }
    }

    /// The path prefix of everything inside `folder`: its standardised path with one trailing slash, so
    /// `/a/b` never takes in `/a/bc`.
    public static func pathPrefix(inside folder: URL) -> String {
        let path = folder.standardizedFileURL.path(percentEncoded: false)
        return path.hasSuffix("/") ? path : path + "/"
    }
}
