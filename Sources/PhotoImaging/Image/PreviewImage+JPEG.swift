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
