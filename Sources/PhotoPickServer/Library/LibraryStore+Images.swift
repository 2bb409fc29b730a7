import Foundation
import GRDB

extension LibraryStore {
    /// What the server knows of an image it has already encoded.
    struct ImageFileFacts: Sendable {
        let length: Int64
        let sha256: [UInt8]
    }

    func imageFile(photoID: Int64, variant: String) async throws -> ImageFileFacts? {
        try await database.read { db in
            try Row.fetchOne(db, sql: "SELECT length, sha256 FROM image_file WHERE photo_id = ? AND variant = ?",
                             arguments: [photoID, variant])
                .map { ImageFileFacts(length: $0["length"], sha256: [UInt8]($0["sha256"] as Data)) }
        }
    }

    /// Records an encoded image; false (and nothing recorded) when the photo is gone.
    func recordImageFile(photoID: Int64, variant: String, facts: ImageFileFacts) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: """
                INSERT OR REPLACE INTO image_file (photo_id, variant, length, sha256)
                SELECT ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM photo WHERE id = ?)
                """, arguments: [photoID, variant, facts.length, Data(facts.sha256), photoID])
            return db.changesCount > 0
        }
    }
}
