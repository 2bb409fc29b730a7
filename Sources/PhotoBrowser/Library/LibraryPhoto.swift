import Foundation
import PhotoPickKit

/// A loaded photo, stored compactly: repeated strings are pool numbers and absent numbers are sentinels,
/// so a library of 100,000 photos stays within a few hundred bytes per photo.
struct LibraryPhoto: Sendable {
    /// The photo's id.
    let id: Int
    /// The server's filename, unsanitised; display it through `TerminalText.sanitized`.
    let filename: String
    /// Size of the original in bytes.
    let bytes: Int64
    /// The ids of its tags as photopick shows them: the server's set plus edits not yet sent.
    internal(set) var tagIDs: [Int]
    /// Capture time in seconds since 1970, or NaN when unknown.
    let takenAtSeconds: Double
    let createdAtSeconds: Double
    let width: Int32
    let height: Int32
    let iso: Int32
    let mimeType: Int32
    let cameraMake: Int32
    let cameraModel: Int32
    let lens: Int32
    let exposureTime: Int32
    let fNumber: Double
    let focalLength: Double
    let latitude: Double
    let longitude: Double
    let title: String?
    let details: Details?

    /// The rarely present parts, kept behind one reference so that photos without them cost 8 bytes.
    final class Details: Sendable {
        let description: String?
        let extra: [String: JSONValue]

        init(description: String?, extra: [String: JSONValue]) {
            self.description = description
            self.extra = extra
        }
    }

    /// Width in pixels, if known.
    var pixelWidth: Int? { Self.expand(width) }
    /// Height in pixels, if known.
    var pixelHeight: Int? { Self.expand(height) }

    /// When it was taken, if known.
    var takenAt: Date? {
        takenAtSeconds.isNaN ? nil : Date(timeIntervalSince1970: takenAtSeconds)
    }

    init(_ photo: Photo, pool: inout StringPool) {
        id = photo.id
        filename = photo.filename
        bytes = photo.bytes
        tagIDs = photo.tagIDs
        takenAtSeconds = photo.takenAt?.timeIntervalSince1970 ?? .nan
        createdAtSeconds = photo.createdAt?.timeIntervalSince1970 ?? .nan
        width = Self.compact(photo.width)
        height = Self.compact(photo.height)
        iso = Self.compact(photo.exposure?.iso)
        mimeType = pool.intern(photo.mimeType)
        cameraMake = pool.intern(photo.camera?.make)
        cameraModel = pool.intern(photo.camera?.model)
        lens = pool.intern(photo.lens)
        exposureTime = pool.intern(photo.exposure?.exposureTime)
        fNumber = photo.exposure?.fNumber ?? .nan
        focalLength = photo.exposure?.focalLength ?? .nan
        latitude = photo.location?.latitude ?? .nan
        longitude = photo.location?.longitude ?? .nan
        title = photo.title
        details = photo.description == nil && photo.extra.isEmpty
            ? nil : Details(description: photo.description, extra: photo.extra)
    }

    /// The full `Photo` again, for the metadata presenter and downloads.
    func photo(pool: StringPool) -> Photo {
        var photo = Photo(id: id, filename: filename, bytes: bytes, takenAt: takenAt, tagIDs: tagIDs)
        photo.createdAt = createdAtSeconds.isNaN ? nil : Date(timeIntervalSince1970: createdAtSeconds)
        photo.width = pixelWidth
        photo.height = pixelHeight
        photo.mimeType = pool[mimeType]
        if cameraMake != 0 || cameraModel != 0 {
            photo.camera = Photo.Camera(make: pool[cameraMake], model: pool[cameraModel])
        }
        photo.lens = pool[lens]
        let exposure = Photo.Exposure(
            iso: Self.expand(iso), fNumber: fNumber.isNaN ? nil : fNumber,
            exposureTime: pool[exposureTime], focalLength: focalLength.isNaN ? nil : focalLength
        )
        if exposure != Photo.Exposure(iso: nil, fNumber: nil, exposureTime: nil, focalLength: nil) { photo.exposure = exposure }
        if !latitude.isNaN { photo.location = Photo.Location(latitude: latitude, longitude: longitude) }
        photo.title = title
        photo.description = details?.description
        photo.extra = details?.extra ?? [:]
        return photo
    }

    /// Numbers that do not fit 32 bits are treated as unknown rather than wrapped.
    private static func compact(_ value: Int?) -> Int32 {
        guard let value, let compact = Int32(exactly: value), compact >= 0 else { return -1 }
        return compact
    }

    private static func expand(_ value: Int32) -> Int? {
        value < 0 ? nil : Int(value)
    }
}
