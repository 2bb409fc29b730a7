import Foundation

/// POSIX shared memory for kitty's `t=s` transmission: a terminal on the same machine reads the pixels
/// from memory and removes the object, so a photo costs a hundred bytes through the pty instead of
/// megabytes of base64. Over SSH the terminal cannot open it, which the start-up probe finds out.
enum SharedMemory {
    /// A name no other process uses: this process's id and a count.
    static func name(_ number: Int) -> String { "/photopick-\(getpid())-\(number)" }

    /// Makes the object `name` holding `bytes`, readable by this user only; false when it cannot.
    static func create(_ name: String, _ bytes: [UInt8]) -> Bool {
        let descriptor = shm_open(name, O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard ftruncate(descriptor, off_t(bytes.count)) == 0 else {
            shm_unlink(name)
            return false
        }
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + offset, bytes.count - offset, off_t(offset)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else {
                shm_unlink(name)
                return false
            }
            offset += written
        }
        return true
    }

    /// Removes `name` if the terminal has not: after the probe, and for objects sent as the app ends.
    static func remove(_ name: String) {
        shm_unlink(name)
    }
}
