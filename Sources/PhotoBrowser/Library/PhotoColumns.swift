import Foundation
import PhotoPickKit

/// Every field of every photo, a column each, indexed by library index: what the list, the sorts and
/// the filters read goes a column at a time through memory that holds nothing else, and a million
/// photos take about 150 bytes each. Repeated strings (cameras, lenses, MIME types, shutter speeds) are
/// string-pool numbers; absent numbers are NaN or -1; the rare long fields (description, unknown
/// fields) are kept aside for the few photos that have them.
struct PhotoColumns: Sendable {
    var ids: [Int] = []
    /// Capture time in seconds since 1970; NaN when unknown.
    var takenAt: [Double] = []
    var createdAt: [Double] = []
    var bytes: [Int64] = []
    var width: [Int32] = []
    var height: [Int32] = []
    var iso: [Int32] = []
    var fNumber: [Double] = []
    var focalLength: [Double] = []
    var latitude: [Double] = []
    var longitude: [Double] = []
    var mimeType: [Int32] = []
    var cameraMake: [Int32] = []
    var cameraModel: [Int32] = []
    var lens: [Int32] = []
    var exposureTime: [Int32] = []
    /// The server's filenames, unsanitised.
    var filenames = TextColumn(filler: 0)
    var titles = TextColumn(filler: 0)
    /// Which titles are absent rather than empty.
    var untitled = Bitset()
    /// Filename and title folded (`SearchFolding`), each followed by a separator no folded text holds.
    var search = TextColumn(filler: PhotoColumns.separator)
    var pool = StringPool()
    /// Descriptions and fields photopick does not model, of the photos that have any.
    var details: [Int32: Details] = [:]

    /// The rarely present parts of a photo.
    struct Details: Sendable, Equatable {
        var description: String?
        var extra: [String: JSONValue]
    }

    static let separator: UInt8 = 0x1F

    var count: Int { ids.count }

    mutating func append(_ photo: Photo) {
        ids.append(photo.id)
        takenAt.append(photo.takenAt?.timeIntervalSince1970 ?? .nan)
        createdAt.append(photo.createdAt?.timeIntervalSince1970 ?? .nan)
        bytes.append(photo.bytes)
        width.append(Self.compact(photo.width))
        height.append(Self.compact(photo.height))
        iso.append(Self.compact(photo.exposure?.iso))
        fNumber.append(photo.exposure?.fNumber ?? .nan)
        focalLength.append(photo.exposure?.focalLength ?? .nan)
        latitude.append(photo.location?.latitude ?? .nan)
        longitude.append(photo.location?.longitude ?? .nan)
        mimeType.append(pool.intern(photo.mimeType))
        cameraMake.append(pool.intern(photo.camera?.make))
        cameraModel.append(pool.intern(photo.camera?.model))
        lens.append(pool.intern(photo.lens))
        exposureTime.append(pool.intern(photo.exposure?.exposureTime))
        filenames.append(photo.filename.utf8)
        titles.append((photo.title ?? "").utf8)
        if photo.title == nil { untitled.insert(count - 1) }
        search.append(Self.searchText(photo))
        if let details = Self.details(photo) { self.details[Int32(count - 1)] = details }
    }

    /// Puts a newer copy of a photo in its row.
    mutating func replace(_ index: Int, with photo: Photo) {
        takenAt[index] = photo.takenAt?.timeIntervalSince1970 ?? .nan
        createdAt[index] = photo.createdAt?.timeIntervalSince1970 ?? .nan
        bytes[index] = photo.bytes
        width[index] = Self.compact(photo.width)
        height[index] = Self.compact(photo.height)
        iso[index] = Self.compact(photo.exposure?.iso)
        fNumber[index] = photo.exposure?.fNumber ?? .nan
        focalLength[index] = photo.exposure?.focalLength ?? .nan
        latitude[index] = photo.location?.latitude ?? .nan
        longitude[index] = photo.location?.longitude ?? .nan
        mimeType[index] = pool.intern(photo.mimeType)
        cameraMake[index] = pool.intern(photo.camera?.make)
        cameraModel[index] = pool.intern(photo.camera?.model)
        lens[index] = pool.intern(photo.lens)
        exposureTime[index] = pool.intern(photo.exposure?.exposureTime)
        if !filenames.withBytes(index, { $0.elementsEqual(photo.filename.utf8) }) { filenames.replace(index, with: photo.filename.utf8) }
        let title = photo.title ?? ""
        if !titles.withBytes(index, { $0.elementsEqual(title.utf8) }) { titles.replace(index, with: title.utf8) }
        if photo.title == nil { untitled.insert(index) } else { untitled.remove(index) }
        let text = Self.searchText(photo)
        if !search.withBytes(index, { $0.elementsEqual(text) }) { search.replace(index, with: text) }
        details[Int32(index)] = Self.details(photo)
    }

    /// A photo deleted on the server: no search finds it any more.
    mutating func forget(_ index: Int) {
        search.blank(index)
        details[Int32(index)] = nil
    }

    /// The photo at `index` with every field, its tags given.
    func photo(at index: Int, tagIDs: [Int]) -> Photo {
        var photo = Photo(
            id: ids[index], filename: filenames.string(index), bytes: bytes[index],
            takenAt: takenAt[index].isNaN ? nil : Date(timeIntervalSince1970: takenAt[index]), tagIDs: tagIDs
        )
        photo.createdAt = createdAt[index].isNaN ? nil : Date(timeIntervalSince1970: createdAt[index])
        photo.width = Self.expand(width[index])
        photo.height = Self.expand(height[index])
        photo.mimeType = pool[mimeType[index]]
        if cameraMake[index] != 0 || cameraModel[index] != 0 {
            photo.camera = Photo.Camera(make: pool[cameraMake[index]], model: pool[cameraModel[index]])
        }
        photo.lens = pool[lens[index]]
        let exposure = Photo.Exposure(
            iso: Self.expand(iso[index]), fNumber: fNumber[index].isNaN ? nil : fNumber[index],
            exposureTime: pool[exposureTime[index]], focalLength: focalLength[index].isNaN ? nil : focalLength[index]
        )
        if exposure != Photo.Exposure(iso: nil, fNumber: nil, exposureTime: nil, focalLength: nil) { photo.exposure = exposure }
        if !latitude[index].isNaN { photo.location = Photo.Location(latitude: latitude[index], longitude: longitude[index]) }
        photo.title = untitled.contains(index) ? nil : titles.string(index)
        if let details = details[Int32(index)] {
            photo.description = details.description
            photo.extra = details.extra
        }
        return photo
    }

    /// Gives back the room arrays keep for growth (up to half of them after a walk's appends): done when a
    /// walk ends, when no photo comes for a while.
    mutating func compact() {
        ids = ids.compacted()
        takenAt = takenAt.compacted()
        createdAt = createdAt.compacted()
        bytes = bytes.compacted()
        width = width.compacted()
        height = height.compacted()
        iso = iso.compacted()
        fNumber = fNumber.compacted()
        focalLength = focalLength.compacted()
        latitude = latitude.compacted()
        longitude = longitude.compacted()
        mimeType = mimeType.compacted()
        cameraMake = cameraMake.compacted()
        cameraModel = cameraModel.compacted()
        lens = lens.compacted()
        exposureTime = exposureTime.compacted()
        filenames.compact()
        titles.compact()
        search.compact()
    }

    /// What a free-text word is looked for in: the filename and the title, folded.
    static func searchText(_ photo: Photo) -> [UInt8] {
        var text = SearchFolding.fold(photo.filename)
        text.append(separator)
        if let title = photo.title, !title.isEmpty {
            text += SearchFolding.fold(title)
            text.append(separator)
        }
        return text
    }

    private static func details(_ photo: Photo) -> Details? {
        photo.description == nil && photo.extra.isEmpty ? nil : Details(description: photo.description, extra: photo.extra)
    }

    /// Numbers that do not fit 32 bits are treated as unknown rather than wrapped.
    static func compact(_ value: Int?) -> Int32 {
        guard let value, let compact = Int32(exactly: value), compact >= 0 else { return -1 }
        return compact
    }

    static func expand(_ value: Int32) -> Int? {
        value < 0 ? nil : Int(value)
    }
}

extension Array {
    /// A copy with no room to grow: what an array kept for long holds after many appends.
    func compacted() -> [Element] {
        capacity > count ? withUnsafeBufferPointer { Array($0) } : self
    }
}
