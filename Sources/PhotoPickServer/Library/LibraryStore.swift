import Foundation
import GRDB

/// The library in SQLite: photos, tags and what the server remembers between runs.
final class LibraryStore: Sendable {
    /// Facts about the stored library, fixed when it was created.
    struct Facts: Sendable {
        let photoCount: Int
        let seed: UInt64
        let signingSecret: [UInt8]
        let defaultKey: String
        let wasCreated: Bool
    }

    let database: DatabasePool
    let facts: Facts

    static let photoColumns = """
        id, filename, bytes, taken_at, created_at, width, height, mime_type, camera_make, camera_model, lens,
        iso, f_number, exposure_time, focal_length, latitude, longitude, title, description, image_seed, taken_ms,
        image_defocus, image_motion, image_gain
        """

    /// Opens the library in `directory`, creating and filling it from `configuration` if it is new.
    init(directory: URL, configuration: ServerConfiguration) throws {
        var options = Configuration()
        options.busyMode = .timeout(10)
        let path = directory.appending(path: "library.sqlite").path
        database = try DatabasePool(path: path, configuration: options)
        try LibrarySchema.migrator.migrate(database)
        facts = try database.write { db in
            if let facts = try Self.readFacts(db) { return facts }
            return try Self.create(db, configuration: configuration)
        }
    }

    private static func readFacts(_ db: Database) throws -> Facts? {
        let rows = try Row.fetchAll(db, sql: "SELECT key, value FROM meta")
        let meta = Dictionary(uniqueKeysWithValues: rows.map { ($0["key"] as String, $0["value"] as String) })
        guard let count = meta["photoCount"].flatMap(Int.init), let seed = meta["seed"].flatMap(UInt64.init),
              let secret = meta["secret"], let key = meta["defaultKey"]
        else { return nil }
        return Facts(photoCount: count, seed: seed, signingSecret: Array(hex: secret), defaultKey: key, wasCreated: false)
    }

    private static func create(_ db: Database, configuration: ServerConfiguration) throws -> Facts {
        var system = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &system) }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        let key = "pp_test_" + String((0..<24).map { _ in alphabet.randomElement(using: &system)! })
        let generator = DemoLibraryGenerator(
            count: configuration.photoCount, seed: configuration.seed, megapixels: configuration.originalMegapixels
        )
        var tagIDs: [Int64] = []
        for tag in DemoCatalog.startingTags {
            try db.execute(sql: "INSERT INTO tag (name, name_key, color) VALUES (?, ?, ?)",
                           arguments: [tag.name, TagRecord.nameKey(tag.name), tag.color])
            tagIDs.append(db.lastInsertedRowID)
        }
        let insertPhoto = try db.makeStatement(sql: """
            INSERT INTO photo (\(photoColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        let insertTag = try db.makeStatement(sql: "INSERT INTO photo_tag (photo_id, tag_id) VALUES (?, ?)")
        try generator.forEachPhoto { photo in
            try insertPhoto.execute(arguments: photo.databaseArguments)
            for index in generator.startingTags(for: photo) {
                try insertTag.execute(arguments: [photo.id, tagIDs[index]])
            }
        }
        // `megapixels` is not read back; it stays a record of how the library was made.
        let meta: [(String, String)] = [
            ("photoCount", String(configuration.photoCount)), ("seed", String(configuration.seed)),
            ("megapixels", String(configuration.originalMegapixels)), ("secret", secret.hexString), ("defaultKey", key),
        ]
        for (name, value) in meta {
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)", arguments: [name, value])
        }
        return Facts(photoCount: configuration.photoCount, seed: configuration.seed, signingSecret: secret, defaultKey: key,
                     wasCreated: true)
    }
}

extension Array where Element == UInt8 {
    init(hex: String) {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex), index < hex.endIndex {
            if let byte = UInt8(hex[index..<next], radix: 16) { bytes.append(byte) }
            index = next
        }
        self = bytes
    }

    /// Lowercase hex, two digits a byte.
    var hexString: String {
        String(unsafeUninitializedCapacity: count * 2) { buffer in
            var index = 0
            for byte in self {
                buffer[index] = HexDigits.lowercase[Int(byte >> 4)]
                buffer[index + 1] = HexDigits.lowercase[Int(byte & 0xF)]
                index += 2
            }
            return index
        }
    }
}

/// The ASCII digits of hexadecimal, by value.
enum HexDigits {
    static let lowercase = Array("0123456789abcdef".utf8)
    static let uppercase = Array("0123456789ABCDEF".utf8)
}
