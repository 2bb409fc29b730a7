import GRDB

extension LibraryStore {
    /// Up to `limit` photos with ids above `afterID`, in id order, with their tag ids.
    func photos(after afterID: Int64, limit: Int) async throws -> [PhotoRecord] {
        try await database.read { db in
            var photos = try Row.fetchAll(
                db, sql: "SELECT \(Self.photoColumns) FROM photo WHERE id > ? ORDER BY id LIMIT ?",
                arguments: [afterID, limit]
            ).map(PhotoRecord.init(row:))
            guard let first = photos.first?.id, let last = photos.last?.id else { return photos }
            var tags: [Int64: [Int64]] = [:]
            for row in try Row.fetchAll(
                db, sql: "SELECT photo_id, tag_id FROM photo_tag WHERE photo_id BETWEEN ? AND ? ORDER BY photo_id, tag_id",
                arguments: [first, last]
            ) {
                tags[row[0], default: []].append(row[1])
            }
            for index in photos.indices { photos[index].tagIDs = tags[photos[index].id] ?? [] }
            return photos
        }
    }

    /// A photo with its tag ids; with `includingTags: false`, one query less and `tagIDs` left empty.
    func photo(id: Int64, includingTags: Bool = true) async throws -> PhotoRecord? {
        try await database.read { db in try Self.fetchPhoto(db, id: id, includingTags: includingTags) }
    }

    /// A new photo with the metadata and pixels of photo `id`, as an upload through the web app would
    /// add one; nil when `id` does not exist. Returns the new id.
    func addPhoto(copying id: Int64) async throws -> Int64? {
        try await database.write { db in
            let columns = Self.photoColumns.replacingOccurrences(of: "id, filename", with: "filename")
            try db.execute(sql: "INSERT INTO photo (\(columns)) SELECT \(columns) FROM photo WHERE id = ?", arguments: [id])
            return db.changesCount == 1 ? db.lastInsertedRowID : nil
        }
    }

    func photoExists(id: Int64) async throws -> Bool {
        try await database.read { db in try Self.photoExists(db, id: id) }
    }

    /// Applies `patch`; nil when the photo does not exist.
    func updatePhoto(id: Int64, with patch: PhotoPatch) async throws -> PhotoRecord? {
        try await database.write { db in
            guard var photo = try Self.fetchPhoto(db, id: id) else { return nil }
            if let filename = patch.filename { photo.filename = filename }
            if case .set(let title) = patch.title { photo.title = title }
            if case .set(let description) = patch.description { photo.description = description }
            if case .set(let takenAt) = patch.takenAt {
                // To the millisecond, as the library keeps times: a shifted burst keeps its frames' order.
                photo.takenAt = takenAt?.seconds
                photo.takenAtMilliseconds = takenAt?.milliseconds ?? 0
            }
            try db.execute(
                sql: "UPDATE photo SET filename = ?, title = ?, description = ?, taken_at = ?, taken_ms = ? WHERE id = ?",
                arguments: [photo.filename, photo.title, photo.description, photo.takenAt, photo.takenAtMilliseconds, id]
            )
            return photo
        }
    }

    /// Hard-deletes a photo and its tag links; false when it did not exist.
    func deletePhoto(id: Int64) async throws -> Bool {
        try await database.write { db in
            try db.execute(sql: "DELETE FROM photo WHERE id = ?", arguments: [id])
            let deleted = db.changesCount > 0
            try db.execute(sql: "DELETE FROM image_file WHERE photo_id = ?", arguments: [id])
            return deleted
        }
    }

    /// The tags on a photo, in id order; nil when the photo does not exist.
    func tags(ofPhoto id: Int64) async throws -> [TagRecord]? {
        try await database.read { db in
            guard try Self.photoExists(db, id: id) else { return nil }
            return try Row.fetchAll(db, sql: """
                SELECT tag.id, tag.name, tag.color FROM photo_tag JOIN tag ON tag.id = photo_tag.tag_id
                WHERE photo_tag.photo_id = ? ORDER BY tag.id
                """, arguments: [id]).map(TagRecord.init(row:))
        }
    }

    /// Replaces a photo's whole tag set; duplicates fold, `[]` clears.
    func replaceTags(ofPhoto id: Int64, with tagIDs: [Int64]) async throws -> PhotoTagsOutcome {
        let wanted = Array(Set(tagIDs)).sorted()
        return try await database.write { db in
            guard try Self.photoExists(db, id: id) else { return .photoNotFound }
            let known = try Set(Int64.fetchAll(db, sql: "SELECT id FROM tag WHERE id IN (\(wanted.map { _ in "?" }.joined(separator: ",")))",
                                               arguments: StatementArguments(wanted)))
            let unknown = wanted.filter { !known.contains($0) }
            guard unknown.isEmpty else { return .unknownTags(unknown) }
            try db.execute(sql: "DELETE FROM photo_tag WHERE photo_id = ?", arguments: [id])
            let insert = try db.cachedStatement(sql: "INSERT INTO photo_tag (photo_id, tag_id) VALUES (?, ?)")
            for tagID in wanted {
                try insert.execute(arguments: [id, tagID])
            }
            return .replaced(wanted)
        }
    }

    static func fetchPhoto(_ db: Database, id: Int64, includingTags: Bool = true) throws -> PhotoRecord? {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(photoColumns) FROM photo WHERE id = ?", arguments: [id]) else {
            return nil
        }
        var photo = PhotoRecord(row: row)
        guard includingTags else { return photo }
        photo.tagIDs = try Int64.fetchAll(db, sql: "SELECT tag_id FROM photo_tag WHERE photo_id = ? ORDER BY tag_id", arguments: [id])
        return photo
    }

    static func photoExists(_ db: Database, id: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM photo WHERE id = ?)", arguments: [id]) ?? false
    }
}

extension PhotoRecord {
    /// A row of `SELECT \(photoColumns)`, read by position: by name, GRDB looks each of the 24 columns
    /// up among the 24, which was most of listing a page.
    init(row: Row) {
        self.init(
            id: row[0], filename: row[1], bytes: row[2], takenAt: row[3], createdAt: row[4], width: row[5], height: row[6],
            mimeType: row[7], cameraMake: row[8], cameraModel: row[9], lens: row[10], iso: row[11], fNumber: row[12],
            exposureTime: row[13], focalLength: row[14], latitude: row[15], longitude: row[16], title: row[17],
            description: row[18], imageSeed: row[19], takenAtMilliseconds: row[20], imageDefocus: row[21],
            imageMotion: row[22], imageGain: row[23]
        )
    }

    var databaseArguments: StatementArguments {
        [id, filename, bytes, takenAt, createdAt, width, height, mimeType, cameraMake, cameraModel, lens, iso,
         fNumber, exposureTime, focalLength, latitude, longitude, title, description, imageSeed, takenAtMilliseconds,
         imageDefocus, imageMotion, imageGain]
    }
}
