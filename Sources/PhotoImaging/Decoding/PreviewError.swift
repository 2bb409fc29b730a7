/// Why a preview could not be made; shown as a grey "no preview" box with this text.
public enum PreviewError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The body is not a JPEG at all.
    case notJPEG
    /// The bytes are no image format photopick reads.
    case unsupported
    /// An original of another format is damaged: the format's name and its library's reason.
    case damaged(format: String, reason: String)
    /// The JPEG ends early or is damaged.
    case corrupt(String)
    /// The file declares more pixels than the decoder allows.
    case tooLarge(width: Int, height: Int)
    /// Fetching it failed; `message` is the client's one line.
    case unavailable(String)
    case outOfMemory

    /// A few words for the "no preview" box.
    public var description: String {
        switch self {
        case .notJPEG: "not a JPEG"
        case .unsupported: "not JPEG, HEIC, AVIF, PNG, TIFF, WebP or a camera RAW"
        case .damaged(let format, let reason): "damaged \(format) (\(reason))"
        case .corrupt: "damaged JPEG"
        case .tooLarge(let width, let height): "too large (\(width)×\(height))"
        case .unavailable(let message): message
        case .outOfMemory: "out of memory"
        }
    }
}
