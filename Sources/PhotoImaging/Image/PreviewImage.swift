/// Decoded pixels, upright, as packed 8-bit RGB rows.
public struct PreviewImage: Hashable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes, row by row.
    public let pixels: [UInt8]

    /// An image from packed RGB rows; `pixels` must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "pixels must be width * height * 3 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Its width and height as a `PixelSize`.
    public var size: PixelSize { PixelSize(width: width, height: height) }

    /// The red, green and blue of the pixel at (x, y).
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
