import GRDB

extension LibraryStore {
    /// Up to `limit` tags with ids above `afterID`, in id order.
    func tags(after afterID: Int64, limit: Int) async throws -> [TagRecord] {
        try await database.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, color FROM tag WHERE id > ? ORDER BY id LIMIT ?",
                             arguments: [afterID, limit]).map(TagRecord.init(row:))
        }
    }

    func tag(id: Int64) async throws -> TagRecord? {
        try await database.read { db in try Self.fetchTag(db, id: id) }
    }

    /// Creates a tag unless another has the same name, case-insensitively.
    func createTag(name: String, color: String?) async throws -> TagWriteOutcome {
        let nameKey = TagRecord.nameKey(name)
        return try await database.write { db in
            if let existing = try Self.fetchTag(db, nameKey: nameKey) { return .conflict(existing: existing) }
            try db.execute(sql: "INSERT INTO tag (name, name_key, color) VALUES (?, ?, ?)", arguments: [name, nameKey, color])
            return .written(TagRecord(id: db.lastInsertedRowID, name: name, color: color))
        }
    }

    func updateTag(id: Int64, with patch: TagPatch) async throws -> TagWriteOutcome {
        try await database.write { db in
            guard var tag = try Self.fetchTag(db, id: id) else { return .notFound }
            if let name = patch.name {
                if let existing = try Self.fetchTag(db, nameKey: TagRecord.nameKey(name)), existing.id != id {
                    return .conflict(existing: existing)
                }
                tag.name = name
            }
            if case .set(let color) = patch.color { tag.color = color }
            try db.execute(sql: "UPDATE tag SET name = ?, name_key = ?, color = ? WHERE id = ?",
                           arguments: [tag.name, TagRecord.nameKey(tag.name), tag.color, id])
            return .written(tag)
        }
    }

    /// Deletes a tag and removes it from every photo; false when it did not exist.
    func deleteTag(id: Int64) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM tag WHERE id = ?", arguments: [id])
            return db.changesCount > 0
        }
    }

    private static func fetchTag(_ db: Database, id: Int64) throws -> TagRecord? {
        try Row.fetchOne(db, sql: "SELECT id, name, color FROM tag WHERE id = ?", arguments: [id]).map(TagRecord.init(row:))
    }

    private static func fetchTag(_ db: Database, nameKey: String) throws -> TagRecord? {
        try Row.fetchOne(db, sql: "SELECT id, name, color FROM tag WHERE name_key = ?", arguments: [nameKey])
            .map(TagRecord.init(row:))
    }
}

extension TagRecord {
    init(row: Row) {
        self.init(id: row["id"], name: row["name"], color: row["color"])
    }
}
