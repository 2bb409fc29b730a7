/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// A size of `width` by `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The size of a picture stored this size once stood upright by EXIF `orientation` (1...8): 5 to 8
    /// turn it a quarter.
    public func upright(exif orientation: Int) -> PixelSize {
        orientation >= 5 ? PixelSize(width: height, height: width) : self
    }

    /// `width×height`, such as `1024×768`.
    public var description: String { "\(width)×\(height)" }
}
