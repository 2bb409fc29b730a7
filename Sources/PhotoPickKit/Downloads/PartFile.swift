import CFileAttributes
import Foundation
import NIOCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `.part` file being written: appends, and remembers the server's validator and the photo it is in
/// extended attributes, so a later run can resume it with `If-Range`.
final class PartFile {
    let descriptor: Int32
    let path: String
    private static let validatorAttribute = "user.photopick.validator"
    private static let sourceAttribute = "user.photopick.source"
    private static let digestAttribute = "user.photopick.sha256"

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        close(descriptor)
    }

    /// Whether the file is empty and was made (or last had its attributes changed) within `age`: a
    /// partial another download has just created and not yet labelled looks like this.
    func isEmptyAndNewerThan(_ age: Duration) -> Bool {
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size == 0 else { return false }
        return FileStamp.now() - FileStamp(info).changed < age.nanoseconds
    }

    /// Bytes in the file now.
    var length: Int64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Empties the file, to start over.
    func reset() throws(DownloadError) {
        validator = nil
        guard ftruncate(descriptor, 0) == 0 else { throw .fileSystem(path: path, reason: DownloadDirectory.reason()) }
    }

    func append(_ buffer: ByteBuffer) throws(DownloadError) {
        try buffer.withUnsafeReadableBytes { bytes throws(DownloadError) in
            var offset = 0
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw Self.writeError(path)
                }
                offset += written
            }
        }
    }

    /// Takes the file for this download alone; false when another download holds it. Where the file system
    /// cannot lock at all, it goes ahead unlocked rather than not at all.
    func lockExclusively() -> Bool {
        flock(descriptor, LOCK_EX | LOCK_NB) == 0 || errno != EWOULDBLOCK
    }

    static func writeError(_ path: String, errno: Int32 = errno) -> DownloadError {
        switch errno {
        case ENOSPC, EDQUOT, EFBIG: .diskFull(path: path)
        default: .fileSystem(path: path, reason: String(cString: strerror(errno)))
        }
    }

    /// Sets the modification time, to the capture time.
    func setModificationTime(_ date: Date) {
        let seconds = date.timeIntervalSince1970
        let whole = floor(seconds)
        let time = timespec(tv_sec: Int(whole), tv_nsec: Int((seconds - whole) * 1e9))
        var times = [time, time]
        _ = futimens(descriptor, &times)
    }

    /// The `ETag` or `Last-Modified` the bytes so far came with, if the file system keeps extended attributes.
    var validator: String? {
        get { attribute(Self.validatorAttribute) }
        set { setAttribute(Self.validatorAttribute, newValue) }
    }

    /// Which photo, size and format the bytes are, so a same-named partial of another photo is never resumed.
    var source: String? {
        get { attribute(Self.sourceAttribute) }
        set { setAttribute(Self.sourceAttribute, newValue) }
    }

    /// The SHA-256 the whole file must have, in hex: the server's digest while it is a `.part`, and the
    /// verified digest once it is in place, so a later run can tell a finished file without asking.
    var digest: [UInt8]? {
        get { attribute(Self.digestAttribute).flatMap(Self.bytes(hex:)) }
        set { setAttribute(Self.digestAttribute, newValue.map { $0.map { String(format: "%02x", $0) }.joined() }) }
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        return stride(from: 0, to: 64, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
    }

    private func attribute(_ name: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = cfa_get(descriptor, name, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    private func setAttribute(_ name: String, _ value: String?) {
        if let value {
            _ = cfa_set(descriptor, name, value, value.utf8.count)
        } else {
            _ = cfa_remove(descriptor, name)
        }
    }
}
