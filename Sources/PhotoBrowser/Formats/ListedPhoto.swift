import Foundation
import PhotoPickFormats
import PhotoPickKit

/// A photo as the scripting verbs print it: its fields as the server gave them, its tags by name and
/// its culling marks, for `ls --json` and `--jsonl`. Text is kept exactly, hostile names included:
/// JSON escapes what a terminal must not see.
package struct ListedPhoto: Encodable, Sendable, Equatable {
    /// Flag, stars and label, each null when unset.
    package struct Marks: Encodable, Sendable, Equatable {
        /// `pick` or `reject`.
        package var flag: String?
        /// 1 to 5 stars.
        package var rating: Int?
        /// The colour label's name.
        package var label: String?

        /// Marks as given.
        package init(flag: String? = nil, rating: Int? = nil, label: String? = nil) {
            self.flag = flag
            self.rating = rating
            self.label = label
        }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(flag, forKey: .flag)
            try container.encode(rating, forKey: .rating)
            try container.encode(label, forKey: .label)
        }

        private enum Keys: String, CodingKey { case flag, rating, label }
    }

    package var id: Int
    package var filename: String
    package var bytes: Int64
    package var takenAt: Date?
    package var width: Int?
    package var height: Int?
    package var mimeType: String?
    package var title: String?
    package var description: String?
    package var camera: Photo.Camera?
    package var lens: String?
    package var exposure: Photo.Exposure?
    package var location: Photo.Location?
    /// The names of its tags that are not marks, in the order the server lists them.
    package var tags: [String]
    package var marks: Marks
    /// The focus score, once measured (`FocusScore`).
    package var sharpness: Double?

    /// An encoder for these, and for every JSON line photopick writes (the purge log's too): keys sorted,
    /// dates as ISO 8601 UTC like the API's, slashes kept.
    package static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601.string(from: date))
        }
        return encoder
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(id, forKey: .id)
        try container.encode(filename, forKey: .filename)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(takenAt, forKey: .takenAt)
        try container.encodeIfPresent(width, forKey: .width)
        try container.encodeIfPresent(height, forKey: .height)
        try container.encodeIfPresent(mimeType, forKey: .mimeType)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(description, forKey: .description)
        try container.encodeIfPresent(camera, forKey: .camera)
        try container.encodeIfPresent(lens, forKey: .lens)
        try container.encodeIfPresent(exposure, forKey: .exposure)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encode(tags, forKey: .tags)
        try container.encode(marks, forKey: .marks)
        try container.encodeIfPresent(sharpness, forKey: .sharpness)
    }

    private enum Keys: String, CodingKey {
        case id, filename, bytes, takenAt, width, height, mimeType, title, description, camera, lens, exposure, location, tags, marks, sharpness
    }
}

extension BrowserState {
    /// The photo at library index `index` as the scripting verbs print it.
    package func listedPhoto(at index: Int) -> ListedPhoto {
        let photo = library.photo(at: index)
        let marks = tags.marks(of: photo.tagIDs)
        return ListedPhoto(
            id: photo.id, filename: photo.filename, bytes: photo.bytes, takenAt: photo.takenAt, width: photo.width, height: photo.height,
            mimeType: photo.mimeType, title: photo.title, description: photo.description, camera: photo.camera, lens: photo.lens,
            exposure: photo.exposure, location: photo.location,
            tags: tags.ordinaryTags(photo.tagIDs).map { tags.tag(id: $0)?.name ?? "#\($0)" },
            marks: ListedPhoto.Marks(flag: marks.flag?.rawValue, rating: marks.rating == 0 ? nil : marks.rating, label: marks.label?.rawValue),
            sharpness: focusFacts(at: index)?.score
        )
    }
}
