import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `stat` says of a file, enough to tell it was not touched since: the status-change time moves on
/// every write, `utime`, `chmod` and rename, and nobody can set it back, so an edit that restores the
/// modification time (as `exiftool -P` does) still shows.
public struct FileStamp: Sendable, Hashable {
    /// The length.
    public let size: Int64
    /// The modification time, in nanoseconds since 1970.
    public let modified: Int64
    /// The status-change time (ctime), in nanoseconds since 1970.
    public let changed: Int64
    /// The file system.
    public let device: UInt64
    /// The inode.
    public let inode: UInt64

    /// A stamp as kept.
    public init(size: Int64, modified: Int64, changed: Int64, device: UInt64, inode: UInt64) {
        self.size = size
        self.modified = modified
        self.changed = changed
        self.device = device
        self.inode = inode
    }

    /// How long before a check a file must have last changed for its stamp to be trusted: a write in the
    /// same tick of a coarse clock (a second on some file systems, two on FAT) would leave it unmoved.
    public static let settling = Duration.seconds(2)

    init(_ info: stat) {
        self.init(
            size: Int64(info.st_size),
            modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            changed: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec),
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino)
        )
    }

    /// The stamp of the regular file at `path`, never through a link; nil for anything else.
    static func of(_ path: String) -> FileStamp? {
        var info = stat()
        guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return FileStamp(info)
    }

    /// The wall clock now, in nanoseconds since 1970, as file times count.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
