import Foundation
import GRDB
import PhotoPickKit

/// Photos as rows of the catalogue, read and written by column position.
extension Catalogue {
    static func arguments(_ photo: Photo, seenAt: Date, walk: Int64) -> StatementArguments {
        let extra = photo.extra.isEmpty ? nil : (try? JSONEncoder().encode(photo.extra)).map { String(decoding: $0, as: UTF8.self) }
        let values: [(any DatabaseValueConvertible)?] = [
            photo.id, photo.filename, photo.bytes, photo.takenAt?.timeIntervalSince1970, photo.createdAt?.timeIntervalSince1970,
            photo.width, photo.height, photo.mimeType, photo.camera?.make, photo.camera?.model, photo.lens,
            photo.exposure?.iso, photo.exposure?.fNumber, photo.exposure?.exposureTime, photo.exposure?.focalLength,
            photo.location?.latitude, photo.location?.longitude, photo.title, photo.description, extra,
            text(photo.tagIDs), seenAt.timeIntervalSince1970, walk,
        ]
        return StatementArguments(values)
    }

    /// The columns `photo(_:)` reads by position and `save(page:)` writes (then `seen_at`, `walk`): a
    /// name lookup per column per row is a third of the time of reading 100,000 photos.
    static let photoColumns = """
        id, filename, bytes, taken_at, created_at, width, height, mime_type, camera_make, camera_model, lens,
        iso, f_number, exposure_time, focal_length, latitude, longitude, title, description, extra, tag_ids
        """

    static let photoColumnCount = photoColumns.split(separator: ",").count

    static func photo(_ row: Row) -> Photo {
        let takenAt: Double? = row[3]
        var photo = Photo(id: row[0], filename: row[1], bytes: row[2], takenAt: takenAt.map(Date.init(timeIntervalSince1970:)), tagIDs: tagIDs(row[20]))
        photo.createdAt = (row[4] as Double?).map(Date.init(timeIntervalSince1970:))
        photo.width = row[5]
        photo.height = row[6]
        photo.mimeType = row[7]
        let make: String? = row[8], model: String? = row[9]
        if make != nil || model != nil { photo.camera = Photo.Camera(make: make, model: model) }
        photo.lens = row[10]
        let exposure = Photo.Exposure(iso: row[11], fNumber: row[12], exposureTime: row[13], focalLength: row[14])
        if exposure != Photo.Exposure(iso: nil, fNumber: nil, exposureTime: nil, focalLength: nil) { photo.exposure = exposure }
        if let latitude: Double = row[15], let longitude: Double = row[16] {
            photo.location = Photo.Location(latitude: latitude, longitude: longitude)
        }
        photo.title = row[17]
        photo.description = row[18]
        if let extra: String = row[19], let values = try? JSONDecoder().decode([String: JSONValue].self, from: Data(extra.utf8)) {
            photo.extra = values
        }
        return photo
    }

    static func text(_ tagIDs: [Int]) -> String {
        tagIDs.map(String.init).joined(separator: ",")
    }

    static func tagIDs(_ text: String) -> [Int] {
        text.isEmpty ? [] : text.utf8.split(separator: UInt8(ascii: ",")).compactMap { Int(Substring($0)) }
    }
}
