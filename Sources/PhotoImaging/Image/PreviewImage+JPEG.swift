import CJPEG

extension PreviewImage {
    /// The image as a baseline JPEG, for a protocol that takes files (iTerm2) when the pixels were not
    /// fetched as one, such as a loupe's view; nil when libjpeg fails.
    public func jpeg(quality: Int = 92) -> [UInt8]? {
        var output: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 200)
        let status = pixels.withUnsafeBufferPointer {
            cjpeg_encode_rgb($0.baseAddress, Int32(width), Int32(height), Int32(quality), 0, 0, &output, &length, &message, message.count)
        }
        guard status == CJPEG_OK, let output else { return nil }
        defer { cjpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }
}

/// A JPEG's stored pixel size, read from its header alone; nil when it is not one libjpeg reads.
public func jpegPixelSize(_ bytes: [UInt8]) -> PixelSize? {
    var width: Int32 = 0, height: Int32 = 0
    let status = bytes.withUnsafeBufferPointer { cjpeg_header_size($0.baseAddress, $0.count, &width, &height) }
    return status == CJPEG_OK && width > 0 && height > 0 ? PixelSize(width: Int(width), height: Int(height)) : nil
}
