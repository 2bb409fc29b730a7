import CFileAttributes
import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The folder downloads land in, held open so that every name is resolved inside it: names are single
/// components (`openat`), and symbolic links are never followed out of it.
final class DownloadDirectory: Sendable {
    let url: URL
    private let descriptor: Int32

    /// Opens the folder, creating it (and its parents) when missing. With `root`, the folder asked for,
    /// `url` is a folder under it: the root is opened as given (a link there is the user's choice), and
    /// each folder below is made or opened one at a time without following a link, so nothing is ever
    /// created outside the root.
    init(_ url: URL, within root: URL? = nil) throws(DownloadError) {
        self.url = url.standardizedFileURL
        let base = root?.standardizedFileURL ?? self.url
        do {
            try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        } catch {
            throw .fileSystem(path: base.path, reason: Self.whyNotCreated(base) ?? "cannot create the folder")
        }
        var descriptor = open(base.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .fileSystem(path: base.path, reason: Self.reason()) }
        var reached = base
        for component in Self.components(of: self.url, below: base) {
            reached.append(path: component, directoryHint: .isDirectory)
            if mkdirat(descriptor, component, 0o755) != 0, errno != EEXIST {
                close(descriptor)
                throw .fileSystem(path: reached.path, reason: Self.reason())
            }
            let next = openat(descriptor, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(descriptor)
            guard next >= 0 else {
                throw .fileSystem(path: reached.path, reason: [ELOOP, ENOTDIR].contains(failure)
                    ? "it is a link or a file, not a folder, and photopick writes only inside \(base.path)" : String(cString: strerror(failure)))
            }
            descriptor = next
        }
        self.descriptor = descriptor
    }

    /// The names of the folders from `base` down to `url`; none when `url` is not below `base`.
    private static func components(of url: URL, below base: URL) -> [String] {
        let inner = url.pathComponents, outer = base.pathComponents
        guard inner.count > outer.count, Array(inner.prefix(outer.count)) == outer else { return [] }
        return Array(inner.dropFirst(outer.count))
    }

    deinit {
        close(descriptor)
    }

    /// Why a folder cannot be made: the nearest thing on its path that is there but is not a folder.
    private static func whyNotCreated(_ url: URL) -> String? {
        var ancestor = url
        while ancestor.path != "/" {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &isFolder) {
                return isFolder.boolValue ? nil : "\(ancestor.path) is a file, not a folder"
            }
            ancestor.deleteLastPathComponent()
        }
        return nil
    }

    /// What is at `name`, without following a link there.
    enum Entry: Equatable {
        case file(length: Int64)
        case other
    }

    func entry(_ name: String) -> Entry? {
        var info = stat()
        guard fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return (info.st_mode & S_IFMT) == S_IFREG ? .file(length: Int64(info.st_size)) : .other
    }

    /// Feeds a regular file's bytes to `hasher`; false if it cannot be read.
    func hash(_ name: String, into hasher: inout SHA256) -> Bool {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        return WrittenFile.hash(file, into: &hasher)
    }

    /// Whether `name` is a regular file of exactly `length` bytes with this SHA-256; only same-length files are hashed.
    func holds(_ name: String, length: Int64, digest: [UInt8]) -> Bool {
        guard entry(name) == .file(length: length) else { return false }
        var hasher = SHA256()
        return hash(name, into: &hasher) && Array(hasher.finalize()) == digest
    }

    /// Opens the partial file `name` for appending: created afresh when there is none (`isNew`), else the
    /// regular file already there. Nothing found there is removed, emptied or followed: a link, a folder
    /// or anything else at the name is in the way.
    /// Opens the partial file `name`, creating it when there is none. A new one is labelled `source`
    /// and locked before it has its name where the system allows (Linux, O_TMPFILE), so a kill at any
    /// point never leaves a partial nobody can prove is photopick's; elsewhere it is created by name
    /// and labelled just after.
    func openPart(_ name: String, labelledAs source: String? = nil) throws(DownloadError) -> (part: PartFile, isNew: Bool) {
        while true {
            // Only for a free name: one already there is opened below, with no file made and thrown away.
            if let source, entry(name) == nil, let part = createLabelled(name, source: source) { return (part, true) }
            let created = openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC | O_APPEND, 0o644)
            if created >= 0 { return (PartFile(descriptor: created, path: path(name)), true) }
            guard errno == EEXIST else { throw .fileSystem(path: path(name), reason: Self.reason()) }
            // O_NONBLOCK: a FIFO at the name must not hang the download; it is refused below.
            let existing = openat(descriptor, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_APPEND | O_NONBLOCK)
            if existing < 0 {
                if errno == ENOENT { continue }  // removed meanwhile: create it
                if [ELOOP, EISDIR, ENXIO, EMLINK].contains(errno) { throw .inTheWay(path: path(name)) }
                throw .fileSystem(path: path(name), reason: Self.reason())
            }
            var info = stat()
            guard fstat(existing, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(existing)
                throw .inTheWay(path: path(name))
            }
            _ = fcntl(existing, F_SETFL, O_APPEND)  // blocking again, for the writes
            return (PartFile(descriptor: existing, path: path(name)), false)
        }
    }

    /// `name`, made unnamed, locked, labelled and then linked in; nil when it is taken or the system
    /// cannot (then `openPart` creates it by name or opens what is there).
    private func createLabelled(_ name: String, source: String) -> PartFile? {
        let unnamed = cfa_open_unnamed(descriptor, 0o644)
        guard unnamed >= 0 else { return nil }
        let part = PartFile(descriptor: unnamed, path: path(name))
        guard part.lockExclusively() else { return nil }
        part.source = source
        guard part.source == source, cfa_link_unnamed(unnamed, descriptor, name) == 0 else { return nil }
        return part
    }

    /// Opens the regular file at `name` without creating, truncating or following anything; nil when there is none.
    func openExistingPart(_ name: String) -> PartFile? {
        let file = openat(descriptor, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        return file >= 0 ? PartFile(descriptor: file, path: path(name)) : nil
    }

    /// Whether `name` still names the file `part` has open (it may have been unlinked since).
    func isSameFile(_ part: PartFile, as name: String) -> Bool {
        var open = stat(), named = stat()
        guard fstat(part.descriptor, &open) == 0, fstatat(descriptor, name, &named, AT_SYMLINK_NOFOLLOW) == 0 else { return false }
        return open.st_dev == named.st_dev && open.st_ino == named.st_ino
    }

    /// Moves `part` to `final` unless something is already there: returns false then, touching nothing.
    func moveIntoPlace(_ part: String, as final: String) throws(DownloadError) -> Bool {
        if linkat(descriptor, part, descriptor, final, 0) == 0 {
            unlinkat(descriptor, part, 0)
            return true
        }
        if errno == EEXIST { return false }
        // File systems without hard links: check, then rename (a small race, but nothing is overwritten silently).
        guard entry(final) == nil else { return false }
        guard renameat(descriptor, part, descriptor, final) == 0 else { throw .fileSystem(path: path(final), reason: Self.reason()) }
        return true
    }

    func remove(_ name: String) {
        unlinkat(descriptor, name, 0)
    }

    /// Makes the folder's entries (a rename) durable.
    func sync() {
        fsync(descriptor)
    }

    /// Bytes free for an unprivileged writer.
    func freeSpace() -> Int64? {
        var info = statvfs()
        guard fstatvfs(descriptor, &info) == 0 else { return nil }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    func path(_ name: String) -> String {
        url.appending(path: name, directoryHint: .notDirectory).path
    }

    static func reason() -> String {
        String(cString: strerror(errno))
    }
}
