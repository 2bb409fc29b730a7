import Foundation
import GRDB
import PhotoPickKit

/// The download queue on disk: items are written when queued and when their status changes, so a
/// restart (or a `kill -9`) finds them; progress itself lives in the `.part` files.
struct DownloadStore: Sendable {
    let database: StateDatabase
    let library: String

    func insert(_ items: [DownloadItem]) throws {
        try database.queue.write { db in
            let statement = try db.cachedStatement(sql: """
                INSERT OR REPLACE INTO download (id, library, photo_id, variant, directory, filename, photo_bytes,
                    taken_at, mime_type, estimated_bytes, status, failure, received_bytes, total_bytes, result_path)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
            for item in items {
                let (status, failure) = Self.encode(item.status)
                try statement.execute(arguments: [
                    item.id, library, item.photoID, item.variant.rawValue, item.directory.path, item.filename, item.photoBytes,
                    item.takenAt?.timeIntervalSince1970, item.mimeType, item.estimatedBytes, status, failure,
                    item.receivedBytes, item.totalBytes, item.resultPath,
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
        return item
    }
}
