import Foundation
import GRDB
import PhotoPickKit

/// The download queue on disk: items are written when queued and when their status changes, so a
/// restart (or a `kill -9`) finds them; progress itself lives in the `.part` files.
struct DownloadStore: Sendable {
    let database: StateDatabase
    let library: String
    /// What a written file's record is dated by.
    let clock: Timekeeper

    func insert(_ items: [DownloadItem]) throws {
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO download (id, library, photo_id, variant, directory, filename, photo_bytes,
                    taken_at, mime_type, estimated_bytes, status, failure, received_bytes, total_bytes, result_path, root)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for item in items {
                let (status, failure) = Self.encode(item.status)
                try statement.execute(arguments: [
                    item.id, library, item.photoID, item.variant.rawValue, item.directory.path, item.filename, item.photoBytes,
                    item.takenAt?.timeIntervalSince1970, item.mimeType, item.estimatedBytes, status, failure,
                    item.receivedBytes, item.totalBytes, item.resultPath, item.root?.path,
                ])
            }
        }
    }

    func delete(_ ids: [Int64]) throws {
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM download WHERE id = ?")
            for id in ids { try statement.execute(arguments: [id]) }
        }
    }

    /// Records a file photopick is about to put in place; it replaces any record of that path.
    func recordWritten(_ file: WrittenFile) throws {
        try database.queue.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO written_file (library, path, photo_id, variant, length, sha256, device, inode, written_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """, arguments: [
                    library, file.path, file.photoID, file.variant, file.length, Self.hex(file.sha256),
                    Int64(bitPattern: file.device), Int64(bitPattern: file.inode), clock.now().timeIntervalSince1970,
                ])
        }
    }

    /// The records of files written in `folder` or below it, by path.
    func writtenFiles(under folder: URL) throws -> [WrittenFile] {
        let prefix = WrittenFile.pathPrefix(inside: folder)
        return try database.queue.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM written_file WHERE library = ? AND substr(path, 1, ?) = ? ORDER BY path
                """, arguments: [library, prefix.unicodeScalars.count, prefix])
        }.compactMap(Self.writtenFile)
    }

    /// The record of the file at `path`, if photopick wrote one there.
    func writtenFile(at path: String) throws -> WrittenFile? {
        try database.queue.read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM written_file WHERE library = ? AND path = ?", arguments: [library, path])
        }.flatMap(Self.writtenFile)
    }

    /// Keeps the stamp a file had when its bytes hashed to its record, unless the record was replaced since.
    func recordVerified(_ file: WrittenFile, as stamp: FileStamp) throws {
        try database.queue.write { db in
            try db.execute(sql: """
                UPDATE written_file SET verified_mtime_ns = ?, verified_ctime_ns = ?
                WHERE library = ? AND path = ? AND sha256 = ? AND device = ? AND inode = ?
                """, arguments: [
                    stamp.modified, stamp.changed, library, file.path, Self.hex(file.sha256),
                    Int64(bitPattern: file.device), Int64(bitPattern: file.inode),
                ])
        }
    }

    /// Forgets the records of these paths: deleted, gone, or the user's now.
    func forgetWritten(_ paths: [String]) throws {
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: "DELETE FROM written_file WHERE library = ? AND path = ?")
            for path in paths { try statement.execute(arguments: [library, path]) }
        }
    }

    private static func writtenFile(_ row: Row) -> WrittenFile? {
        guard let digest = bytes(hex: row["sha256"]) else { return nil }
        let device: Int64 = row["device"], inode: Int64 = row["inode"], length: Int64 = row["length"]
        let modified: Int64? = row["verified_mtime_ns"], changed: Int64? = row["verified_ctime_ns"]
        let verified = modified.flatMap { modified in
            changed.map { FileStamp(size: length, modified: modified, changed: $0, device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode)) }
        }
        return WrittenFile(
            photoID: row["photo_id"], variant: row["variant"], path: row["path"], length: length, sha256: digest,
            device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), verified: verified
        )
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        let bytes = stride(from: 0, to: 64, by: 2).compactMap { UInt8(String(decoding: digits[$0..<$0 + 2], as: UTF8.self), radix: 16) }
        return bytes.count == 32 ? bytes : nil
    }

    /// Every item of `library`, in the order queued.
    static func all(_ db: Database, library: String) throws -> [DownloadItem] {
        try Row.fetchAll(db, sql: "SELECT * FROM download WHERE library = ? ORDER BY id", arguments: [library]).compactMap(item)
    }

    /// The highest id in the whole database, so new ones never collide with another library's.
    static func highestID(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM download") ?? 0
    }

    private static func encode(_ status: DownloadItem.Status) -> (String, String?) {
        switch status {
        case .queued: ("queued", nil)
        case .running: ("running", nil)
        case .paused: ("paused", nil)
        case .done: ("done", nil)
        case .skipped: ("skipped", nil)
        case .failed(let reason): ("failed", reason)
        }
    }

    private static func item(_ row: Row) -> DownloadItem? {
        guard let variant = DownloadSize(rawValue: row["variant"]) else { return nil }
        let status: DownloadItem.Status = switch row["status"] as String {
        case "running": .running
        case "paused": .paused
        case "done": .done
        case "skipped": .skipped
        case "failed": .failed(row["failure"] ?? "failed")
        default: .queued
        }
        let takenAt: Double? = row["taken_at"]
        var item = DownloadItem(
            id: row["id"], photoID: row["photo_id"], variant: variant, directory: URL(fileURLWithPath: row["directory"]),
            filename: row["filename"], photoBytes: row["photo_bytes"], takenAt: takenAt.map(Date.init(timeIntervalSince1970:)),
            mimeType: row["mime_type"], estimatedBytes: row["estimated_bytes"], status: status
        )
        item.receivedBytes = row["received_bytes"]
        item.totalBytes = row["total_bytes"]
        item.resultPath = row["result_path"]
        item.root = (row["root"] as String?).map { URL(fileURLWithPath: $0) }
        return item
    }
}
