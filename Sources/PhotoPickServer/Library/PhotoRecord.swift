/// One photo's stored metadata.
struct PhotoRecord: Sendable, Hashable {
    var id: Int64
    var filename: String
    var bytes: Int64
    var takenAt: Int64?
    var createdAt: Int64
    var width: Int
    var height: Int
    var mimeType: String
    var cameraMake: String?
    var cameraModel: String?
    var lens: String?
    var iso: Int?
    var fNumber: Double?
    var exposureTime: String?
    var focalLength: Double?
    var latitude: Double?
    var longitude: Double?
    var title: String?
    var description: String?
    /// Seed of this photo's procedural image.
    var imageSeed: Int64
    /// The capture time's fraction of a second, 0–999: frames of a burst are tenths of a second apart.
    var takenAtMilliseconds = 0
    /// How the demo picture was taken, as fractions of the long edge: the defocus blur's sigma and the
    /// length of a horizontal shake, both 0 for a sharp frame; and the exposure as a multiplier.
    /// Within a burst one frame is sharp and the others are not, so tests know which is best.
    var imageDefocus = 0.0
    var imageMotion = 0.0
    var imageGain = 1.0
    var tagIDs: [Int64] = []
}

/// One tag's stored metadata.
struct TagRecord: Sendable, Equatable {
    var id: Int64
    var name: String
    var color: String?
}
