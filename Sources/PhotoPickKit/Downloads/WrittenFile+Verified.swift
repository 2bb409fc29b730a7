import Foundation

extension WrittenFile {
    /// What is at `path` now, read only when it must be: a file whose `stat` (length, both times, file
    /// system and inode) is still `verified` is intact without a byte read, since any write, `utime`,
    /// `chmod` or rename moves its status-change time. Otherwise it is hashed whole; `verified` in the
    /// answer is the stamp to keep for next time when that hash found it intact, else nil.
    ///
    /// A stamp is only offered when the file last changed `settling` before the check began (by default
    /// `FileStamp.settling`), so a write in the same tick of a coarse file-system clock cannot hide behind it.
    public func currentStateTrustingStamp(settling: Duration = FileStamp.settling) -> (state: State, verified: FileStamp?) {
        if let verified, verified.size == length, verified.device == device, verified.inode == inode,
           FileStamp.of(path) == verified {
            return (.intact, nil)
        }
        let began = FileStamp.now()
        let (state, stamp) = hashedState()
        guard state == .intact, let stamp, stamp.changed < began - settling.nanoseconds else { return (state, nil) }
        return (.intact, stamp)
    }
}

extension Duration {
    /// The whole nanoseconds, as the file stamps count.
    var nanoseconds: Int64 { components.seconds * 1_000_000_000 + components.attoseconds / 1_000_000_000 }
}
