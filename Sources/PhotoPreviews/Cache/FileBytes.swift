import Foundation

/// Whole files to and from byte arrays without a `Data` on the way: a 20 MB original read through
/// `Data` is held twice for a moment, and the loupe's memory budget counts that.
enum FileBytes {
    /// The file's bytes, or nil when it cannot be opened or read whole.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        let length = Int(status.st_size)
        return try? [UInt8](unsafeUninitializedCapacity: length) { buffer, count in
            count = 0
            while count < length {
                let got = Foundation.read(descriptor, buffer.baseAddress! + count, length - count)
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { throw CocoaError(.fileReadUnknown) }
                count += got
            }
        }
    }

    /// Writes `bytes` to a new file at `path` (it must not exist), whole or not at all.
    static func write(_ bytes: [UInt8], toNew path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw Self.error("cannot create \(path)") }
        let written = bytes.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let put = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if put < 0, errno == EINTR { continue }
                guard put > 0 else { return false }
                offset += put
            }
            return true
        }
        let reason = written ? nil : String(cString: strerror(errno))
        close(descriptor)
        guard written else {
            unlink(path)
            throw Self.error("cannot write \(path): \(reason ?? "")")
        }
    }

    private static func error(_ text: String) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: text])
    }
}
