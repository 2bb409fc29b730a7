import PhotoPickFormats

/// A photo as the API shows it. Every field is always present; ours may be null.
struct PhotoRepresentation: Encodable {
    let photo: PhotoRecord

    private enum Key: String, CodingKey {
        case id, filename, bytes, takenAt, tagIds, width, height, mimeType, createdAt, camera, lens, exposure, location
        case title, description
    }

    private enum CameraKey: String, CodingKey { case make, model }
    private enum ExposureKey: String, CodingKey { case iso, fNumber, exposureTime, focalLength }
    private enum LocationKey: String, CodingKey { case latitude, longitude }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(photo.id, forKey: .id)
        try container.encode(photo.filename, forKey: .filename)
        try container.encode(photo.bytes, forKey: .bytes)
        try container.encode(photo.takenAt.map { ISO8601.string(seconds: $0, milliseconds: photo.takenAtMilliseconds) }, forKey: .takenAt)
        try container.encode(photo.tagIDs, forKey: .tagIds)
        try container.encode(photo.width, forKey: .width)
        try container.encode(photo.height, forKey: .height)
        try container.encode(photo.mimeType, forKey: .mimeType)
        try container.encode(ISO8601.string(seconds: photo.createdAt), forKey: .createdAt)
        if photo.cameraMake != nil || photo.cameraModel != nil {
            var camera = container.nestedContainer(keyedBy: CameraKey.self, forKey: .camera)
            try camera.encode(photo.cameraMake, forKey: .make)
            try camera.encode(photo.cameraModel, forKey: .model)
        } else {
            try container.encodeNil(forKey: .camera)
        }
        try container.encode(photo.lens, forKey: .lens)
        var exposure = container.nestedContainer(keyedBy: ExposureKey.self, forKey: .exposure)
        try exposure.encode(photo.iso, forKey: .iso)
        try exposure.encode(photo.fNumber, forKey: .fNumber)
        try exposure.encode(photo.exposureTime, forKey: .exposureTime)
        try exposure.encode(photo.focalLength, forKey: .focalLength)
        if let latitude = photo.latitude, let longitude = photo.longitude {
            var location = container.nestedContainer(keyedBy: LocationKey.self, forKey: .location)
            try location.encode(latitude, forKey: .latitude)
            try location.encode(longitude, forKey: .longitude)
        } else {
            try container.encodeNil(forKey: .location)
        }
        try container.encode(photo.title, forKey: .title)
        try container.encode(photo.description, forKey: .description)
    }
}

/// A tag as the API shows it.
struct TagRepresentation: Encodable {
    let tag: TagRecord

    private enum Key: String, CodingKey { case id, name, color }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(tag.id, forKey: .id)
        try container.encode(tag.name, forKey: .name)
        try container.encode(tag.color, forKey: .color)
    }
}
